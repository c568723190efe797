// Package oracle holds no code of pallas-ls: it is where pallas-ls's
// predictions meet real JAX. The Python under this directory (scripts/oracle,
// harness/, gen.py; see README.md) runs programs under real JAX releases and
// commits what each raised in results/<version>.jsonl. compare_test.go runs
// pallas-ls on every case for every recorded version, without JAX, and
// fails on any disagreement not listed, with its reason, in
// known-differences.txt. match.go holds the one rule both the comparison
// and the mutation harness (internal/mutate) use to hold a predicted
// message against the one JAX raised.
package oracle
