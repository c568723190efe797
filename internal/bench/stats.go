package main

import (
	"sort"
	"time"
)

// latency summarises samples in milliseconds.
type latency struct {
	N        int     `json:"n"`
	Timeouts int     `json:"timeouts"`
	MedianMS float64 `json:"median_ms"`
	P90MS    float64 `json:"p90_ms"`
	P95MS    float64 `json:"p95_ms"`
	P99MS    float64 `json:"p99_ms"`
	MinMS    float64 `json:"min_ms"`
	MaxMS    float64 `json:"max_ms"`
}

func summarize(samples []time.Duration, timeouts int) latency {
	l := latency{N: len(samples), Timeouts: timeouts}
	if len(samples) == 0 {
		return l
	}
	s := append([]time.Duration(nil), samples...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	l.MedianMS = ms(percentile(s, 50))
	l.P90MS = ms(percentile(s, 90))
	l.P95MS = ms(percentile(s, 95))
	l.P99MS = ms(percentile(s, 99))
	l.MinMS, l.MaxMS = ms(s[0]), ms(s[len(s)-1])
	return l
}

// percentile is the nearest-rank percentile of sorted samples.
func percentile(sorted []time.Duration, p int) time.Duration {
	rank := (p*len(sorted) + 99) / 100
	return sorted[max(rank, 1)-1]
}
