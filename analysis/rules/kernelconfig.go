package rules

import (
	"fmt"

	"github.com/pallas-ls/pallas-ls/analysis"
	"github.com/pallas-ls/pallas-ls/lowering"
)

// Helpers of the kernel-configuration rules (PAL211-PAL216): they read
// analysis.KernelConfig, judge only what it knows, and report each place
// once however many calls share the pallas_call.

// configReporter reports a finding at most once per location and message.
// With into set it only collects them, for eachConfig.
type configReporter struct {
	p    *analysis.Pass
	seen map[string]bool
	into *[]keyedFinding
}

// keyedFinding is a finding with the key configReporter dedupes it by.
type keyedFinding struct {
	key string
	d   analysis.Diagnostic
}

func newConfigReporter(p *analysis.Pass) *configReporter {
	return &configReporter{p: p, seen: map[string]bool{}}
}

// report files a finding predicting o at loc (severity: the rule's, or
// sev when set).
func (r *configReporter) report(loc analysis.Location, sev analysis.Severity, msg string, o lowering.Outcome, fixes []analysis.SuggestedFix) {
	if loc.File == "" {
		return
	}
	key := fmt.Sprintf("%s:%d:%d:%s", loc.File, loc.Span.Start, loc.Span.End, msg)
	if r.into == nil && r.seen[key] {
		return
	}
	if o.Fails {
		msg += fmt.Sprintf("; with %s this fails: %s", version(r.p), quoteError(o))
	}
	d := analysis.Diagnostic{Location: loc, Severity: sev, Message: msg, JAXError: jaxError(o), Fixes: fixes}
	if o.Fails {
		d.Detail = detail(r.p, o)
	}
	if r.into != nil {
		*r.into = append(*r.into, keyedFinding{key, d})
		return
	}
	r.emit(keyedFinding{key, d})
}

func (r *configReporter) emit(f keyedFinding) {
	if !r.seen[f.key] {
		r.seen[f.key] = true
		r.p.Report(f.d)
	}
}

// eachConfig runs check on each kernel call with a pallas_call
// configuration, in order, reporting each place once: a check of one call
// that reads only that call, the JAX version and the TPU chip. A call
// whose fact the last report checked comes back from Pass.CallMemo (an
// edit renders few facts again; the rules ran over every call on every
// keystroke).
func eachConfig(p *analysis.Pass, check func(kc *analysis.KernelCall, r *configReporter)) {
	r := newConfigReporter(p)
	for _, kc := range configs(p) {
		found := p.CallMemo(kc, func() any {
			var out []keyedFinding
			check(kc, &configReporter{p: p, into: &out})
			return out
		}).([]keyedFinding)
		for _, f := range found {
			r.emit(f)
		}
	}
}

// configs lists the pallas_call configurations of the pass's kernel calls.
func configs(p *analysis.Pass) []*analysis.KernelCall {
	var out []*analysis.KernelCall
	for _, kc := range p.KernelCalls {
		// A call reached only inside a raises-block (ExpectReaches) is
		// one whose failure its test expects.
		if kc.Config != nil && (len(kc.Reaches) > 0 || len(kc.ExpectReaches) == 0) {
			out = append(out, kc)
		}
	}
	return out
}

// specArray pairs a spec with the array it maps: in_specs[i] with operand
// i after the scalar-prefetch ones, out_specs[i] with output i.
type specArray struct {
	spec  analysis.SpecFact
	shape []int  // nil when unknown
	dtype string // "" when unknown
	out   bool   // an output's (else an input's)
	index int
}

// what names the array: "input 0", "output 1" (made only for a finding:
// the rules ask for every kernel call's specs on every report).
func (sa specArray) what() string {
	if sa.out {
		return fmt.Sprintf("output %d", sa.index)
	}
	return fmt.Sprintf("input %d", sa.index)
}

func specArrays(c *analysis.KernelConfig) []specArray {
	var out []specArray
	if c.InSpecs.Known && !c.InSpecs.Single && c.OperandsKnown && c.NumScalarPrefetch >= 0 &&
		len(c.Operands)-c.NumScalarPrefetch == len(c.InSpecs.Specs) {
		for i, s := range c.InSpecs.Specs {
			out = append(out, specArray{s, c.Operands[i+c.NumScalarPrefetch].Shape, c.Operands[i+c.NumScalarPrefetch].DType, false, i})
		}
	}
	if c.OutSpecs.Known && c.OutsKnown && c.OutSpecs.Single == c.OutSingle && len(c.OutSpecs.Specs) == len(c.Outs) {
		for i, s := range c.OutSpecs.Specs {
			out = append(out, specArray{s, c.Outs[i].Shape, c.Outs[i].DType, true, i})
		}
	}
	return out
}

// allSpecs lists every BlockSpec of in_specs and out_specs.
func allSpecs(c *analysis.KernelConfig) []analysis.SpecFact {
	var out []analysis.SpecFact
	for _, l := range []analysis.SpecList{c.InSpecs, c.OutSpecs} {
		for _, s := range l.Specs {
			if s.BlockSpec {
				out = append(out, s)
			}
		}
	}
	return out
}

func shapeText(dims []analysis.BlockDim) string {
	s := "("
	for i, d := range dims {
		if i > 0 {
			s += ", "
		}
		switch {
		case d.Squeezed:
			s += "None"
		case d.Known:
			s += fmt.Sprint(d.Size)
		default:
			s += "?"
		}
	}
	if len(dims) == 1 {
		s += ","
	}
	return s + ")"
}
