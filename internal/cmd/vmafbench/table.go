package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// row is every run of every tool at one size and thread count.
type row struct {
	size        string
	threads     int
	samples     [][]sample // by tool, then round
	worstPooled float64    // largest |pooled VMAF difference| from tool 0
	worstFrame  float64    // largest |per-frame VMAF difference| from tool 0
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func (r row) each(tool int, f func(sample) float64) []float64 {
	out := make([]float64, len(r.samples[tool]))
	for i, s := range r.samples[tool] {
		out[i] = f(s)
	}
	return out
}

func (r row) medianFPS(tool int) float64 { return median(r.each(tool, sample.fps)) }

// cpuPerFrame is the median user+system time per frame, in milliseconds:
// unlike frames/s it hardly moves when other processes share the cores.
func (r row) cpuPerFrame(tool int) float64 {
	return median(r.each(tool, func(s sample) float64 {
		return float64(s.cpu.Milliseconds()) / float64(len(s.frames))
	}))
}

// peakMiB is the largest resident set of any run of the tool.
func (r row) peakMiB(tool int) float64 {
	return slices.Max(r.each(tool, func(s sample) float64 { return float64(s.maxRSS) / 1024 }))
}

// meanLoad is the mean 1-minute load average at the start of the row's runs.
func (r row) meanLoad() float64 {
	var sum float64
	var n int
	for t := range r.samples {
		for _, s := range r.samples[t] {
			if !math.IsNaN(s.load) {
				sum += s.load
				n++
			}
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// writeTables prints the speed table and the CPU-time table in Markdown.
func writeTables(w io.Writer, c config, rows []row) {
	base := c.tools[0].name
	head := []string{"size", "threads"}
	for _, t := range c.tools {
		head = append(head, t.name+" fps")
	}
	for _, t := range c.tools[1:] {
		head = append(head, base+" ÷ "+t.name)
	}
	for _, t := range c.tools {
		head = append(head, t.name+" peak MiB")
	}
	head = append(head, "load avg")
	writeRow(w, head)
	writeRule(w, len(head))
	for _, r := range rows {
		cells := []string{r.size, fmt.Sprint(r.threads)}
		for i := range c.tools {
			cells = append(cells, fmt.Sprintf("%.1f", r.medianFPS(i)))
		}
		for i := range c.tools[1:] {
			cells = append(cells, fmt.Sprintf("%.2f", r.medianFPS(0)/r.medianFPS(i+1)))
		}
		for i := range c.tools {
			cells = append(cells, fmt.Sprintf("%.0f", r.peakMiB(i)))
		}
		writeRow(w, append(cells, fmt.Sprintf("%.1f", r.meanLoad())))
	}

	fmt.Fprintln(w)
	head = []string{"size", "threads"}
	for _, t := range c.tools {
		head = append(head, t.name+" CPU ms/frame")
	}
	what := "VMAF"
	if c.metric != "vmaf" {
		what = c.metric
	}
	head = append(head, "worst Δ"+what+" pooled", "worst Δ"+what+" frame")
	writeRow(w, head)
	writeRule(w, len(head))
	for _, r := range rows {
		cells := []string{r.size, fmt.Sprint(r.threads)}
		for i := range c.tools {
			cells = append(cells, fmt.Sprintf("%.1f", r.cpuPerFrame(i)))
		}
		cells = append(cells, fmt.Sprintf("%.2g", r.worstPooled), fmt.Sprintf("%.2g", r.worstFrame))
		writeRow(w, cells)
	}
	fmt.Fprintf(w, "\nfps: median over %d interleaved runs of each tool (whole process, wall clock); "+
		"peak MiB: largest resident set of any run; load avg: mean 1-minute load when the runs started, "+
		"the benchmark's own threads included; CPU ms/frame: median user+system time per frame.\n", c.runs)
}

func writeRow(w io.Writer, cells []string) {
	fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
}

// writeRule ends the header: size and threads left-aligned, figures right.
func writeRule(w io.Writer, n int) {
	fmt.Fprintf(w, "| --- | --- |%s\n", strings.Repeat(" ---: |", n-2))
}
