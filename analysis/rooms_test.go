package analysis_test

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// rooms assigns every non-test file of analysis and analysis/ir to a
// group; doc.go says what each holds. A file may use the names (types,
// functions, fields, methods) defined in its own group and in the groups
// below it, never those of a group above it or of a sibling: the groups
// on one line of roomOrder do not know each other.
var rooms = map[string]string{
	"ir/ir.go": "ir", "ir/build.go": "ir", "ir/build_defs.go": "ir", "ir/build_expr.go": "ir", "ir/refs.go": "ir",
	"ir/summary.go": "ir", "ir/text.go": "ir", "ir/shape.go": "ir", "ir/trivia.go": "ir", "ir/deadbody.go": "ir",

	"diagnostic.go": "contract", "fix.go": "contract", "options.go": "contract", "result.go": "contract",
	"facts.go": "contract", "target.go": "contract", "facts_config.go": "contract", "facts_lowering.go": "contract", "edits.go": "contract", "suppress.go": "contract", "analyzer.go": "contract", "vocabulary.go": "contract",
	"labels.go": "contract",

	"program.go": "program",

	"prescan.go": "prune", "prune.go": "prune",

	"interp.go": "interpreter", "driver.go": "interpreter", "env.go": "interpreter", "values.go": "interpreter", "symbols.go": "interpreter",
	"context.go": "interpreter", "exec.go": "interpreter", "eval.go": "interpreter", "call.go": "interpreter",
	"func.go": "interpreter", "attr.go": "interpreter", "api.go": "interpreter", "kernel.go": "interpreter",
	"classify.go": "interpreter", "collective.go": "interpreter", "eagerread.go": "interpreter", "eagerref.go": "interpreter", "smapply.go": "interpreter", "mesh.go": "interpreter", "inert.go": "interpreter", "record.go": "interpreter", "params.go": "interpreter",
	"arith.go": "interpreter", "arrays.go": "interpreter", "builtins.go": "interpreter", "treemap.go": "interpreter", "blockspec.go": "interpreter",
	"journal.go": "interpreter", "history.go": "interpreter", "resume.go": "interpreter", "detached.go": "interpreter",
	"kconfig.go": "interpreter",

	"suppress_apply.go": "suppression",

	"check.go": "engine", "platform.go": "engine", "summarize.go": "engine", "report.go": "engine", "reuse.go": "engine", "store.go": "engine",
}

// roomOrder lists the groups from the bottom up; groups on one line are
// siblings.
var roomOrder = [][]string{{"ir"}, {"contract"}, {"program"}, {"prune", "interpreter", "suppression"}, {"engine"}}

// TestRoomsPointOneWay type-checks analysis/ir and analysis and fails on
// every use of a name that points up or sideways between groups, and on
// every file that has no group.
func TestRoomsPointOneWay(t *testing.T) {
	rank := map[string]int{}
	for i, level := range roomOrder {
		for _, g := range level {
			rank[g] = i
		}
	}
	uses, err := crossFileUses([]string{"./ir", "."})
	if err != nil {
		t.Fatal("type-checking the package:", err)
	}
	for file := range uses.files {
		if _, ok := rooms[file]; !ok && filepath.Base(file) != "doc.go" {
			t.Errorf("%s has no group: add it to rooms (and to the file list in doc.go)", file)
		}
	}
	for _, u := range uses.list {
		from, to := rooms[u.from], rooms[u.to]
		if from == "" || to == "" || from == to {
			continue
		}
		if rank[to] >= rank[from] {
			t.Errorf("%s (%s) uses %s of %s (%s): a group may use only its own names and those of the groups below it (%s)", u.from, from, u.name, u.to, to, strings.Join(flat(roomOrder), " <- "))
		}
	}
}

func flat(levels [][]string) []string {
	var out []string
	for _, l := range levels {
		out = append(out, strings.Join(l, "/"))
	}
	return out
}

type nameUse struct{ from, to, name string }

type fileUses struct {
	files map[string]bool // every file checked, relative to this directory
	list  []nameUse
}

// crossFileUses lists, for the packages in dirs (dependencies first),
// every use in one file of a name defined in another file of them.
func crossFileUses(dirs []string) (*fileUses, error) {
	out, err := exec.Command("go", append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}\t{{.Dir}}"}, dirs...)...).Output()
	if err != nil {
		return nil, err
	}
	exports, pkgDirs := map[string]string{}, map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if f := strings.Split(sc.Text(), "\t"); len(f) == 3 {
			exports[f[0]], pkgDirs[f[2]] = f[1], f[0]
		}
	}
	fset := token.NewFileSet()
	gc := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) { return os.Open(exports[path]) })
	checked := map[string]*types.Package{}
	imp := importerFunc(func(path string) (*types.Package, error) {
		if p, ok := checked[path]; ok {
			return p, nil
		}
		return gc.Import(path)
	})
	here, _ := filepath.Abs(".")
	res := &fileUses{files: map[string]bool{}}
	defined := map[types.Object]string{}
	var infos []*types.Info
	for _, d := range dirs {
		abs, _ := filepath.Abs(d)
		files, err := parseDir(fset, abs)
		if err != nil {
			return nil, err
		}
		info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
		conf := types.Config{Importer: imp, FakeImportC: true}
		pkg, err := conf.Check(pkgDirs[abs], fset, files, info)
		if err != nil {
			return nil, err
		}
		checked[pkg.Path()] = pkg
		for id, obj := range info.Defs {
			if obj != nil && (obj.Parent() == pkg.Scope() || obj.Parent() == nil) {
				defined[obj], _ = filepath.Rel(here, fset.Position(id.Pos()).Filename)
			}
		}
		for _, f := range files {
			name, _ := filepath.Rel(here, fset.Position(f.Pos()).Filename)
			res.files[name] = true
		}
		infos = append(infos, info)
	}
	for _, info := range infos {
		for id, obj := range info.Uses {
			if fn, ok := obj.(*types.Func); ok {
				obj = fn.Origin()
			} else if v, ok := obj.(*types.Var); ok {
				obj = v.Origin()
			}
			to, ok := defined[obj]
			from, _ := filepath.Rel(here, fset.Position(id.Pos()).Filename)
			if ok && to != from {
				res.list = append(res.list, nameUse{from, to, obj.Name()})
			}
		}
	}
	sort.Slice(res.list, func(i, j int) bool { return fmt.Sprint(res.list[i]) < fmt.Sprint(res.list[j]) })
	return res, nil
}

func parseDir(fset *token.FileSet, dir string) ([]*ast.File, error) {
	names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

type importerFunc func(string) (*types.Package, error)

func (f importerFunc) Import(p string) (*types.Package, error) { return f(p) }
