package lsp

import (
	"context"
	"fmt"
	"math/rand"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/analysis/rules"
	"github.com/pallas-ls/pallas-ls/lowering"
	"github.com/pallas-ls/pallas-ls/pyparse"
)

const soakKernels = `import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def ring_kernel(x_ref, o_ref, s, r):
    me = jax.lax.axis_index("x")
    pltpu.make_async_remote_copy(x_ref, o_ref, s, r, device_id={"x": me}).start()


def ring(x):
    return pl.pallas_call(ring_kernel, out_shape=x, scratch_shapes=[pltpu.SemaphoreType.DMA] * 2)(x)
`

const soakMain = `import jax
from jax.sharding import PartitionSpec as P

from kernels import ring


def step(x):
    return ring(x)


if __name__ == "__main__":
    mesh = jax.make_mesh((8,), ("x",))
    jax.shard_map(step, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(1)
`

// snippets are what the random editor types or pastes: whole lines,
// half-typed code, syntax errors, non-ASCII text.
var snippets = []string{
	"step(x)\n", "ring(1)\n", "(", ")", "def ", ":\n    ", "    return ring(x)\n", "# é 😀\n",
	"jax.jit(step)(1)\n", "x = [1, 2,", "\n", "import jax\n", "pltpu.semaphore_signal(s, 1)\n",
	"@jax.jit\ndef g(x):\n    return ring(x)\n", "  # pallas-ls: ignore[PAL101]", "lambda y: ring(y)",
}

// TestSoakRandomEdits replays thousands of random edits (inserts, deletes,
// pastes, undo-like reversals, syntax errors mid-edit) across two files
// through the real engine, then checks that the published diagnostics
// equal a fresh check of the final texts, and that no goroutine outlives
// the session.
func TestSoakRandomEdits(t *testing.T) {
	edits := 2000
	if testing.Short() {
		edits = 300
	}
	before := runtime.NumGoroutine()
	files := map[string]string{"kernels.py": soakKernels, "main.py": soakMain}
	tc := session(t, files, clientOpts{}, withChecker(analysis.NewEngine()))
	texts := map[string]string{}
	versions := map[string]int32{}
	for name, text := range files {
		tc.open(name, text)
		texts[name], versions[name] = text, 1
	}
	rng := rand.New(rand.NewSource(1))
	names := []string{"kernels.py", "main.py"}
	var history []struct{ name, text string }
	for i := 0; i < edits; i++ {
		name := names[rng.Intn(len(names))]
		next := randomEdit(rng, texts[name])
		if len(history) > 0 && rng.Intn(10) == 0 { // undo-like reversal
			h := history[len(history)-1]
			history = history[:len(history)-1]
			name, next = h.name, h.text
		} else {
			history = append(history, struct{ name, text string }{name, texts[name]})
		}
		sendDiff(tc, name, versions[name]+1, texts[name], next)
		texts[name] = next
		versions[name]++
		switch i % 97 {
		case 13: // interleaved configuration changes
			setJAX(t, tc, []string{"0.7", "0.5", "0.11"}[rng.Intn(3)])
		case 41: // a cancellation storm: hovers cancelled as soon as sent
			cancelStorm(t, tc, name)
		}
	}
	setJAX(t, tc, "0.11") // the fresh check below uses 0.11
	// A last edit that certainly changes each file's diagnostics, so that
	// its publication marks quiescence for that version.
	for _, name := range names {
		final := texts[name] + "\nx_final_line = 1  # pallas-ls: ignore[PAL101]\n"
		sendDiff(tc, name, versions[name]+1, texts[name], final)
		texts[name] = final
		versions[name]++
	}
	for _, name := range names {
		v := versions[name]
		tc.waitFor(fmt.Sprintf("%s published at version %d", name, v), func() bool {
			p, ok := tc.lastPub(name)
			got, set := p.Version.Get()
			return ok && set && got == v
		})
	}
	want := freshCheck(t, tc, texts)
	if len(want["kernels.py"])+len(want["main.py"]) == 0 {
		t.Fatal("the final texts have no findings at all: the comparison would prove nothing")
	}
	for _, name := range names {
		p, _ := tc.lastPub(name)
		if got := published(p); strings.Join(got, "\n") != strings.Join(want[name], "\n") {
			t.Errorf("%s: published diagnostics differ from a fresh check\n got: %q\nwant: %q\ntext:\n%s", name, got, want[name], texts[name])
		}
	}
	if err := tc.shutdownExit(); err != nil {
		t.Fatalf("serve: %v", err)
	}
	tc.conn.Close()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before+2 && time.Now().Before(deadline) {
		runtime.Gosched()
		time.Sleep(10 * time.Millisecond) // polling for exit, not for ordering
	}
	if n := runtime.NumGoroutine(); n > before+2 {
		buf := make([]byte, 1<<16)
		t.Errorf("goroutines leaked after shutdown: %d before, %d after\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}

func randomEdit(rng *rand.Rand, text string) string {
	at := runeBoundary(text, rng.Intn(len(text)+1))
	switch rng.Intn(3) {
	case 0, 1:
		return text[:at] + snippets[rng.Intn(len(snippets))] + text[at:]
	}
	end := runeBoundary(text, min(len(text), at+rng.Intn(40)))
	return text[:at] + text[end:]
}

func runeBoundary(s string, i int) int {
	for i > 0 && i < len(s) && s[i]&0xC0 == 0x80 {
		i--
	}
	return i
}

// sendDiff sends the change from old to new as one incremental edit
// (the differing middle), in UTF-16 positions.
func sendDiff(tc *testClient, name string, version int32, old, new string) {
	p, s := runeBoundary(old, pyparse.Diff([]byte(old), []byte(new)).Start), 0
	for s < len(old)-p && s < len(new)-p && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	for s > 0 && (len(old)-s) < len(old) && old[len(old)-s]&0xC0 == 0x80 {
		s--
	}
	m := pyparse.NewMapper([]byte(old))
	sl, sc := m.UTF16(p)
	el, ec := m.UTF16(len(old) - s)
	rng := protocol.Range{Start: protocol.Position{Line: uint32(sl), Character: uint32(sc)}, End: protocol.Position{Line: uint32(el), Character: uint32(ec)}}
	tc.edit(name, version, &rng, new[p:len(new)-s])
}

func published(p protocol.PublishDiagnosticsParams) []string {
	var out []string
	for _, d := range p.Diagnostics {
		out = append(out, fmt.Sprintf("%d:%d %v %s", d.Range.Start.Line, d.Range.Start.Character, d.Code, d.Message))
	}
	sort.Strings(out)
	return out
}

func freshCheck(t *testing.T, tc *testClient, texts map[string]string) map[string][]string {
	var files []analysis.SourceFile
	for name, text := range texts {
		files = append(files, analysis.SourceFile{Path: filepath.Clean(tc.path(name)), Src: []byte(text)})
	}
	res, err := analysis.Check(context.Background(), files, analysis.Options{JAXVersion: lowering.Latest, ShowInfo: true, Analyzers: rules.All()})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, d := range res.Diagnostics {
		name := filepath.Base(d.File)
		m := pyparse.NewMapper([]byte(texts[name]))
		l, c := m.UTF16(d.Span.Start)
		out[name] = append(out[name], fmt.Sprintf("%d:%d %v %s", l, c, d.Code, d.Message))
	}
	for k := range out {
		sort.Strings(out[k])
	}
	return out
}

func setJAX(t *testing.T, tc *testClient, v string) {
	settings := protocol.LSPAny(`{"pallas-ls": {"jaxVersion": "` + v + `"}}`)
	if err := tc.server.DidChangeConfiguration(tc.ctx(), &protocol.DidChangeConfigurationParams{Settings: settings}); err != nil {
		t.Fatal(err)
	}
}

// cancelStorm sends hovers on one goroutine each, and $/cancelRequest for
// them (and for ids never sent) right away.
func cancelStorm(t *testing.T, tc *testClient, name string) {
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			ctx, cancel := context.WithCancel(tc.ctx())
			go func() { cancel() }()
			var h protocol.Hover
			tc.conn.Call(ctx, "textDocument/hover", hoverAt(tc, name, uint32(i), 0), &h)
		}(i)
		tc.conn.Notify(tc.ctx(), "$/cancelRequest", map[string]any{"id": 1000000 + i})
	}
	wg.Wait()
}

// TestMemoryAfterClosingDocuments: opening and closing many large buffers
// leaves the heap near where it started.
func TestMemoryAfterClosingDocuments(t *testing.T) {
	tc := session(t, map[string]string{"kernels.py": soakKernels}, clientOpts{}, withChecker(analysis.NewEngine()))
	tc.open("main.py", "from kernels import ring\n\nring(1)\n")
	tc.waitDiags("kernels.py", 1, nil)
	base := heapInUse()
	big := strings.Repeat("x = [1, 2, 3]  # filler\n", 40000) // about 1 MB
	for i := 0; i < 30; i++ {
		name := fmt.Sprintf("big%d.py", i)
		tc.open(name, big)
	}
	for i := 0; i < 30; i++ {
		name := fmt.Sprintf("big%d.py", i)
		if err := tc.server.DidClose(tc.ctx(), &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: tc.uri(name)}}); err != nil {
			t.Fatal(err)
		}
	}
	// A change after the closes makes the server re-check without them.
	tc.edit("main.py", 2, nil, "from kernels import ring\n\nring(1)  # pallas-ls: ignore[PAL103]\n")
	tc.waitFor("re-check after closing", func() bool {
		p, ok := tc.lastPub("main.py")
		v, _ := p.Version.Get()
		return ok && v == 2
	})
	if after := heapInUse(); after > base+16<<20 {
		t.Errorf("heap grew from %d MB to %d MB after closing 30 MB of buffers", base>>20, after>>20)
	}
}

func heapInUse() uint64 {
	var ms runtime.MemStats
	for i := 0; i < 3; i++ {
		runtime.GC()
	}
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}
