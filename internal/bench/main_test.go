package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"
)

// TestMain lets the test binary serve as the benchmark's parse child
// (parseChildEnv), since run re-executes its own binary for the floors.
func TestMain(m *testing.M) {
	if dir := os.Getenv(parseChildEnv); dir != "" {
		os.Exit(parseChild(context.Background(), dir, os.Stdout))
	}
	os.Exit(m.Run())
}

// TestBenchRuns runs the whole benchmark on the smallest corpus with a few
// editor samples, against a freshly built server: every measurement must
// come back (the numbers themselves are not judged here).
func TestBenchRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the server and runs an editor session")
	}
	var out, log bytes.Buffer
	if code := run(context.Background(), []string{"-lines", "10k", "-edits", "6", "-json"}, &out, &log); code != 0 {
		t.Fatalf("bench exited %d:\n%s\n%s", code, log.String(), out.String())
	}
	var res struct {
		Sizes []struct {
			Editor *editorResult `json:"editor"`
		} `json:"results"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out.String())
	}
	if len(res.Sizes) != 1 || res.Sizes[0].Editor == nil {
		t.Fatalf("no editor result:\n%s", out.String())
	}
	e := res.Sizes[0].Editor
	if e.Edits.N != 6 || e.Anywhere.N != 6 || e.Hover.N != 6 {
		t.Errorf("want 6 samples of each editor measurement, got edits %d, anywhere %d, hovers %d", e.Edits.N, e.Anywhere.N, e.Hover.N)
	}
}

// TestBenchOnATree measures an existing tree (-dir): the floor and the
// three checks come back, over the files check reads, with no editor
// session unless -edits asks for one; flags that only apply to a
// generated corpus are refused.
func TestBenchOnATree(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the server")
	}
	var out, log bytes.Buffer
	if code := run(context.Background(), []string{"-dir", "../../examples", "-json"}, &out, &log); code != 0 {
		t.Fatalf("bench exited %d:\n%s\n%s", code, log.String(), out.String())
	}
	var res struct {
		Results []sizeResult `json:"results"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out.String())
	}
	if len(res.Results) != 1 {
		t.Fatalf("want one result, got %d", len(res.Results))
	}
	r := res.Results[0]
	if r.Tree == "" || r.PyFiles == 0 || r.Lines == 0 || r.Parse.Seconds <= 0 || r.Editor != nil {
		t.Errorf("tree result incomplete: %+v", r)
	}
	for _, c := range []*checkRun{r.Cold, r.Fill, r.Warm} {
		if c == nil || c.Files != r.PyFiles || c.Findings["PAL101"] == 0 {
			t.Errorf("check over %d files: %+v", r.PyFiles, c)
		}
	}
	out.Reset()
	log.Reset()
	if code := run(context.Background(), []string{"-dir", "../../examples", "-edits", "4", "-json"}, &out, &log); code != 0 {
		t.Fatalf("bench -edits 4 exited %d:\n%s\n%s", code, log.String(), out.String())
	}
	res.Results = nil
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || len(res.Results) != 1 {
		t.Fatalf("bad JSON: %v\n%s", err, out.String())
	}
	if e := res.Results[0].Editor; e == nil || e.Tree.N != 4 || len(e.TreeSamples) != 4 || e.FirstDiagAfterInit <= 0 || e.PeakRSSMB <= 0 || e.CPUEndSeconds <= 0 {
		t.Errorf("tree editor session incomplete: %+v", e)
	}
	log.Reset()
	if code := run(context.Background(), []string{"-dir", "../../examples", "-lines", "10k"}, &out, &log); code != 2 {
		t.Errorf("-dir with -lines: exit %d, want 2; %s", code, log.String())
	}
}
