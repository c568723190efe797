package analysis

import (
	"maps"
	"slices"
	"strings"

	"github.com/pallas-ls/pallas-ls/analysis/ir"
)

// Parameterized tests: absl's parameterized.parameters / named_parameters
// / product and pytest.mark.parametrize give a test its parameter sets.
// Each set runs as its own call with its literal values, so a value chosen
// by a branch on a parameter is not lost at a join.

// vParamTest is a test function with its parameter sets.
type vParamTest struct {
	Fn   value
	Sets []args
}

func (*vParamTest) isValue() {}

// maxParamSets bounds the sets of one test; past it the test runs once
// with Unknown arguments, as before. It stays well under maxEvalsPerDef:
// a helper every set calls with other literals would otherwise be widened
// to Unknown arguments, and a guard on an argument (`if mesh is None:`)
// would then take both branches in the sets' multi-device context
// (measured on tpu-inference: a product of 16 sets did that).
const maxParamSets = 6

// paramDecorator reads a parameterizing decorator: the parameter sets it
// gives, ok false when dv is not one or its sets are not all literal.
func paramDecorator(dv value) ([]args, bool) {
	c, ok := dv.(*vExtCall)
	if !ok {
		return nil, false
	}
	switch {
	case strings.HasSuffix(c.Qual, "parameterized.parameters"):
		return absltestCases(c.Args, false)
	case strings.HasSuffix(c.Qual, "parameterized.named_parameters"):
		return absltestCases(c.Args, true)
	case strings.HasSuffix(c.Qual, "parameterized.product"):
		return productCases(c.Kw)
	case c.Qual == "pytest.mark.parametrize":
		if len(c.Args) < 2 {
			return nil, false
		}
		return pytestCases(c.Args[0], c.Args[1])
	}
	return nil, false
}

// absltestCases: each test case is a tuple (positional arguments; with
// named, the first is the name), a dict (keywords; testcase_name is the
// name) or one value; a single list argument is the list of cases.
func absltestCases(cases []value, named bool) ([]args, bool) {
	if len(cases) == 1 {
		if s, ok := cases[0].(*vSeq); ok {
			cases = s.Items
		}
	}
	var out []args
	for _, tc := range cases {
		switch tc := tc.(type) {
		case *vSeq:
			pos := tc.Items
			if named {
				if len(pos) == 0 {
					return nil, false
				}
				pos = pos[1:]
			}
			out = append(out, args{pos: pos})
		case *vDict:
			if tc.Open {
				return nil, false
			}
			a := args{kw: map[string]value{}}
			for i, k := range tc.Keys {
				s, ok := constStr(k)
				if !ok {
					return nil, false
				}
				if s != "testcase_name" {
					a.kw[s] = tc.Items[i]
				}
			}
			out = append(out, a)
		default:
			if named {
				return nil, false
			}
			out = append(out, args{pos: []value{tc}})
		}
	}
	return out, len(out) > 0 && len(out) <= maxParamSets
}

// productCases is parameterized.product(a=[...], b=[...]): every
// combination of the keywords' values.
func productCases(kw map[string]value) ([]args, bool) {
	out := []args{{kw: map[string]value{}}}
	for _, k := range slices.Sorted(maps.Keys(kw)) {
		s, ok := kw[k].(*vSeq)
		if !ok || len(s.Items) == 0 || len(out)*len(s.Items) > maxParamSets {
			return nil, false
		}
		var next []args
		for _, a := range out {
			for _, v := range s.Items {
				m := maps.Clone(a.kw)
				m[k] = v
				next = append(next, args{kw: m})
			}
		}
		out = next
	}
	return out, len(kw) > 0
}

// pytestCases is pytest.mark.parametrize("a, b", [(1, 2), ...]) (names as
// one string or a sequence); pytest.param(...) values are unwrapped.
func pytestCases(names, values value) ([]args, bool) {
	var ns []string
	if s, ok := constStr(names); ok {
		for _, n := range strings.Split(s, ",") {
			ns = append(ns, strings.TrimSpace(n))
		}
	} else if l, ok := strList(names); ok {
		ns = l
	} else {
		return nil, false
	}
	vs, ok := values.(*vSeq)
	if !ok || len(vs.Items) == 0 || len(vs.Items) > maxParamSets {
		return nil, false
	}
	var out []args
	for _, v := range vs.Items {
		if p, ok := v.(*vExtCall); ok && p.Qual == "pytest.param" {
			v = &vSeq{Items: p.Args}
			if len(ns) == 1 && len(p.Args) == 1 {
				v = p.Args[0]
			}
		}
		a := args{kw: map[string]value{}}
		if len(ns) == 1 {
			a.kw[ns[0]] = v
		} else {
			s, ok := v.(*vSeq)
			if !ok || len(s.Items) != len(ns) {
				return nil, false
			}
			for i, n := range ns {
				a.kw[n] = s.Items[i]
			}
		}
		out = append(out, a)
	}
	return out, true
}

// combineSets is two stacked parameterizations: every pair of sets.
func combineSets(a, b []args) ([]args, bool) {
	if len(a)*len(b) > maxParamSets {
		return nil, false
	}
	var out []args
	for _, x := range a {
		for _, y := range b {
			m := args{pos: append(append([]value{}, x.pos...), y.pos...), kw: map[string]value{}}
			maps.Copy(m.kw, x.kw)
			maps.Copy(m.kw, y.kw)
			out = append(out, m)
		}
	}
	return out, true
}

// callParamTest runs a parameterized test: with the runner's opaque
// arguments, once per parameter set; called directly, as its function.
func (in *interp) callParamTest(p *vParamTest, a args, site *ir.Expr) value {
	if !a.opaque || len(a.pos) > 0 || len(a.kw) > 0 {
		return in.call(p.Fn, a, site)
	}
	var out value
	for _, s := range p.Sets {
		out = join(out, in.call(p.Fn, s, site))
	}
	return out
}
