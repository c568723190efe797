package main

import (
	"bufio"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/pallas-ls/pallas-ls/pyparse"
)

//go:embed driver.py
var driverPy []byte

// OracleError is what the oracle recorded for one entry.
type OracleError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
	Layer   string `json:"layer"`
}

// entry says how the oracle runs the code a mutant changes: one test
// method, one pytest function, or the module as a script. Kind "" means
// nothing runs it by itself (a library module, a helper): then validity
// is judged statically.
type entry struct {
	Kind     string   `json:"kind"` // "method", "function", "script"
	File     string   `json:"file"` // base name of the module in the case directory
	Class    string   `json:"class,omitempty"`
	Method   string   `json:"method,omitempty"`
	Others   []string `json:"others,omitempty"` // the class's other test methods (parameterized name prefixes)
	Function string   `json:"function,omitempty"`
	Paths    []string `json:"paths,omitempty"`
	Why      string   `json:"-"` // when Kind is "": why not runnable
}

func (e entry) key(rel string) string {
	return rel + "|" + e.Kind + "|" + e.Class + "|" + e.Method + "|" + e.Function
}

var testFileRE = regexp.MustCompile(`(^test_.*|.*_test)\.py$`)

// entryFor decides the oracle entry of a mutant from its site.
func entryFor(f *file, m Mutant) entry {
	base := filepath.Base(m.File)
	parts := strings.Split(m.Site, ".")
	if testFileRE.MatchString(base) {
		if len(parts) >= 2 && strings.HasPrefix(parts[1], "test") {
			if cls := f.classNamed(parts[0]); cls != pyparse.NoNode {
				return entry{Kind: "method", File: base, Class: parts[0], Method: parts[1], Others: f.methods(cls)}
			}
		}
		if len(parts) >= 1 && strings.HasPrefix(parts[0], "test") && f.classNamed(parts[0]) == pyparse.NoNode {
			return entry{Kind: "function", File: base, Function: parts[0]}
		}
		return entry{Why: "in a test module but outside any test (a helper, setUp or module level)"}
	}
	if f.hasMain() || strings.HasPrefix(m.File, "docs/") {
		return entry{Kind: "script", File: base}
	}
	return entry{Why: "library module: nothing in it runs by itself"}
}

// oracleRun runs the entries of every mutant that has one, mutated and
// unmutated, under one JAX version, and fills in the Oracle* fields.
func oracleRun(cfg *config, base string, rs []*Result, srcs map[string][]byte) error {
	dir := filepath.Join(cfg.scratch, "oracle")
	var dirs []string
	caseOf := map[string]string{} // case dir base name -> result key
	clean := map[string]string{}  // entry key -> case name of the unmutated run
	n := 0
	cache := loadOracleCache(cfg.oracleCache)
	// The venv's lock is part of a verdict's key: a package added to it
	// (rich, for the shard_map notebook) changes what runs clean.
	lock, _ := os.ReadFile(filepath.Join(filepath.Dir(cfg.oracle), "..", "oracle", "locks", cfg.oracleJAX+".txt"))
	got := map[string]*OracleError{}
	ran := map[string]bool{}
	keyOf := map[string]string{} // case name -> cache key
	write := func(rel string, e entry, src []byte, what string) (string, error) {
		n++
		name := fmt.Sprintf("c%04d", n)
		h := sha256.New()
		js, _ := json.Marshal(e)
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s\x00", cfg.oracleJAX, js, rel, driverPy, lock)
		h.Write(src)
		key := hex.EncodeToString(h.Sum(nil))
		if c, ok := cache[key]; ok {
			got[what], ran[what] = c.Error, true
			return name, nil
		}
		keyOf[name] = key
		cd := filepath.Join(dir, name)
		// The module's own directory: its siblings are importable as they
		// are beside a test or script.
		from := filepath.Join(base, filepath.FromSlash(filepath.Dir(rel)))
		ents, err := os.ReadDir(from)
		if err != nil {
			return "", err
		}
		if err := os.MkdirAll(cd, 0o755); err != nil {
			return "", err
		}
		for _, de := range ents {
			if de.Type().IsRegular() && strings.HasSuffix(de.Name(), ".py") {
				if err := copyFile(filepath.Join(from, de.Name()), filepath.Join(cd, de.Name())); err != nil {
					return "", err
				}
			}
		}
		if err := os.WriteFile(filepath.Join(cd, e.File), src, 0o644); err != nil {
			return "", err
		}
		e.Paths = importRoots(base)
		js, _ = json.Marshal(e)
		if err := os.WriteFile(filepath.Join(cd, "_mutate.json"), js, 0o644); err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(cd, "_mutate_entry.py"), driverPy, 0o644); err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(cd, "case.toml"), []byte("entry = \"_mutate_entry.py\"\n"), 0o644); err != nil {
			return "", err
		}
		dirs = append(dirs, cd)
		return name, nil
	}
	for _, r := range rs {
		if r.entry.Kind == "" {
			continue
		}
		k := r.entry.key(r.File)
		if _, ok := clean[k]; !ok {
			name, err := write(r.File, r.entry, srcs[r.File], "clean|"+k)
			if err != nil {
				return err
			}
			clean[k] = name
			caseOf[name] = "clean|" + k
		}
		name, err := write(r.File, r.entry, r.src, "mutant|"+r.ID)
		if err != nil {
			return err
		}
		caseOf[name] = "mutant|" + r.ID
	}
	if len(dirs) > 0 {
		if err := runOracle(cfg, dirs, caseOf, keyOf, got, ran); err != nil {
			return err
		}
	}
	judgeOracle(cfg, rs, got, ran)
	return nil
}

func runOracle(cfg *config, dirs []string, caseOf, keyOf map[string]string, got map[string]*OracleError, ran map[string]bool) error {
	out := filepath.Join(cfg.scratch, "oracle.jsonl")
	args := append([]string{"-n", "10", cfg.oracle, "--jax", cfg.oracleJAX, "--jobs", fmt.Sprint(cfg.jobs), "--out", out}, dirs...)
	cmd := exec.Command("nice", args...)
	cmd.Env = append(os.Environ(), "PALLAS_LS_ORACLE_TIMEOUT="+fmt.Sprint(cfg.oracleTimeout))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("oracle: %v", err)
	}
	fh, err := os.Open(out)
	if err != nil {
		return err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var line struct {
			Case  string       `json:"case"`
			Error *OracleError `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		name := filepath.Base(line.Case)
		k := caseOf[name]
		got[k], ran[k] = line.Error, true
		if key := keyOf[name]; key != "" && cfg.oracleCache != "" && (line.Error == nil || line.Error.Layer != "oracle") {
			appendOracleCache(cfg.oracleCache, key, line.Error)
		}
	}
	return sc.Err()
}

func judgeOracle(cfg *config, rs []*Result, got map[string]*OracleError, ran map[string]bool) {
	for _, r := range rs {
		if r.entry.Kind == "" {
			continue
		}
		ck, mk := "clean|"+r.entry.key(r.File), "mutant|"+r.ID
		if !ran[ck] || !ran[mk] {
			r.Validity, r.Why = "static", "the oracle recorded no result"
			continue
		}
		if e := got[ck]; e != nil {
			r.Validity = "static"
			r.Why = fmt.Sprintf("unmutated entry does not run clean under JAX %s: %s: %s", cfg.oracleJAX, e.Type, clipMsg(e.Message))
			continue
		}
		r.Oracle = got[mk]
		r.Validity = "oracle"
		switch e := r.Oracle; {
		case e == nil:
			r.Valid, r.Why = false, "JAX ran the mutant without an error"
		case e.Layer == "oracle" || e.Type == "SkipTest":
			r.Valid, r.Why = false, "the mutant could not run: "+e.Type+": "+clipMsg(e.Message)
		case e.Type == "AssertionError":
			r.Valid, r.Why = false, "only the test's own assertion failed (it expects an error)"
		case e.Type == "AttributeError" && strings.Contains(e.Message, "'function' object"):
			// f.trace(x), f.lower(x) on what is no longer a jit: the
			// change broke the program itself, not a JAX check.
			r.Valid, r.Why = false, "the change broke the program, not JAX: "+e.Type+": "+clipMsg(e.Message)
		default:
			r.Valid, r.Why = true, "JAX raised "+e.Type+" ("+e.Layer+")"
		}
	}
}

type cached struct {
	Key   string       `json:"key"`
	Error *OracleError `json:"error"`
}

// The oracle's verdicts do not depend on the pallas-ls binary: a cache
// (one JSON line per case: a hash of the JAX version, the entry, the
// module's source and the driver) lets a second binary reuse them.
// Harness problems (layer "oracle": timeouts, crashes) are not cached.
func loadOracleCache(path string) map[string]cached {
	out := map[string]cached{}
	if path == "" {
		return out
	}
	fh, err := os.Open(path)
	if err != nil {
		return out
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var c cached
		if json.Unmarshal(sc.Bytes(), &c) == nil && c.Key != "" {
			out[c.Key] = c
		}
	}
	return out
}

func appendOracleCache(path, key string, e *OracleError) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	fh, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer fh.Close()
	js, _ := json.Marshal(cached{key, e})
	fh.Write(append(js, '\n'))
}

// importRoots: the directories of the scratch copy that go on sys.path
// (the root, and python/ or src/ layouts), except a root holding a `jax`
// package, which would shadow the oracle's own JAX (JAX's repository).
func importRoots(base string) []string {
	var out []string
	if st, err := os.Stat(filepath.Join(base, "jax")); err == nil && st.IsDir() {
		return nil
	}
	out = append(out, base)
	for _, sub := range []string{"python", "src"} {
		if st, err := os.Stat(filepath.Join(base, sub)); err == nil && st.IsDir() {
			out = append(out, filepath.Join(base, sub))
		}
	}
	return out
}

func clipMsg(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 140 {
		return s[:137] + "..."
	}
	return s
}
