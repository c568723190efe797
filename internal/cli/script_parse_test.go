package cli

import (
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/tools/txtar"
)

// A CLI script is a txtar archive in testdata/scripts. Its sections are:
//
//	-- NAME --        a project file, written into a fresh directory
//	-- bytes:NAME --  a project file given as one Go-quoted string, for
//	                  content a text file cannot hold (NUL, invalid UTF-8)
//	-- args --        starts a step: the arguments after "pallas-ls",
//	                  split at spaces; '...' and "..." quote
//	-- exit --        the step's expected exit code (default 0)
//	-- stdout --      the step's exact stdout (absent: must be empty)
//	-- stderr --      lines the step's stderr must each contain (absent:
//	                  stderr must be empty)
//	-- file:NAME --   the exact content of a project file after the step
//	-- file-bytes:NAME --  the same, as one Go-quoted string
//
// Project files come before the first step. In stdout and stderr the
// project directory reads $WORK, so expectations hold on any machine. The
// comment before the first section says what the script covers.
// go test ./internal/cli -run TestScripts -update rewrites exit, stdout
// and file: sections (adding exit and stdout when missing) from the
// actual results; review the diff before committing.
type script struct {
	ar    *txtar.Archive
	files []txtar.File // project files, with bytes: already decoded
	steps []*scriptStep
}

type scriptStep struct {
	args    []string
	argsIdx int // index of the args section in ar.Files
	exitIdx int // -1 when absent
	outIdx  int // -1 when absent
	stderr  []string
	hasErr  bool
	want    []int // indices of file: sections
}

func parseScript(data []byte) (*script, error) {
	s := &script{ar: txtar.Parse(data)}
	for i, f := range s.ar.Files {
		if err := s.addSection(i, f); err != nil {
			return nil, fmt.Errorf("section %q: %w", f.Name, err)
		}
	}
	if len(s.steps) == 0 {
		return nil, fmt.Errorf("no args section")
	}
	return s, nil
}

func (s *script) addSection(i int, f txtar.File) error {
	if f.Name == "args" {
		args, err := splitArgs(string(f.Data))
		s.steps = append(s.steps, &scriptStep{args: args, argsIdx: i, exitIdx: -1, outIdx: -1})
		return err
	}
	step := s.current()
	isStep := f.Name == "exit" || f.Name == "stdout" || f.Name == "stderr" || isFileWant(f.Name)
	switch {
	case isStep && step == nil:
		return fmt.Errorf("before the first args section")
	case !isStep && step != nil:
		return fmt.Errorf("project files must come before the first args section")
	case f.Name == "exit":
		step.exitIdx = i
	case f.Name == "stdout":
		step.outIdx = i
	case f.Name == "stderr":
		step.hasErr = true
		step.stderr = nonEmptyLines(string(f.Data))
	case isStep:
		step.want = append(step.want, i)
	default:
		return s.addFile(f)
	}
	return nil
}

func (s *script) current() *scriptStep {
	if len(s.steps) == 0 {
		return nil
	}
	return s.steps[len(s.steps)-1]
}

func (s *script) addFile(f txtar.File) error {
	if name, ok := strings.CutPrefix(f.Name, "bytes:"); ok {
		data, err := strconv.Unquote(strings.TrimSpace(string(f.Data)))
		if err != nil {
			return fmt.Errorf("not a Go string: %v", err)
		}
		f = txtar.File{Name: name, Data: []byte(data)}
	}
	s.files = append(s.files, f)
	return nil
}

// isFileWant reports whether a section states a file's content after a step.
func isFileWant(name string) bool {
	return strings.HasPrefix(name, "file:") || strings.HasPrefix(name, "file-bytes:")
}

// wantFile returns the file a file: or file-bytes: section names and the
// content it expects.
func (s *script) wantFile(i int) (name string, data []byte, err error) {
	f := s.ar.Files[i]
	if name, ok := strings.CutPrefix(f.Name, "file:"); ok {
		return name, f.Data, nil
	}
	str, err := strconv.Unquote(strings.TrimSpace(string(f.Data)))
	return strings.TrimPrefix(f.Name, "file-bytes:"), []byte(str), err
}

// wantSection is the section stating that file i now holds data.
func (s *script) wantSection(i int, data []byte) txtar.File {
	name := s.ar.Files[i].Name
	if strings.HasPrefix(name, "file-bytes:") {
		data = []byte(strconv.Quote(string(data)) + "\n")
	}
	return txtar.File{Name: name, Data: data}
}

// expectedExit is the step's exit section, or 0.
func (s *script) expectedExit(st *scriptStep) (int, error) {
	if st.exitIdx < 0 {
		return 0, nil
	}
	return strconv.Atoi(strings.TrimSpace(string(s.ar.Files[st.exitIdx].Data)))
}

func (s *script) expectedStdout(st *scriptStep) string {
	if st.outIdx < 0 {
		return ""
	}
	return string(s.ar.Files[st.outIdx].Data)
}

// splitArgs splits at spaces and newlines, honouring '...' and "..."
// quotes (no escapes: scripts need none).
func splitArgs(line string) ([]string, error) {
	var args []string
	var cur strings.Builder
	inArg, quote := false, rune(0)
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inArg = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inArg {
				args, inArg = append(args, cur.String()), false
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
			inArg = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated quote")
	}
	if inArg {
		args = append(args, cur.String())
	}
	return args, nil
}

func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}
