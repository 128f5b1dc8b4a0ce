package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/report"
	"github.com/vmafsink/vmafsink/vmaf"
)

// A part of a run (--shard I/N, --frames A:B) scores frames [first, end)
// of the run as the whole run scores them. The frames around the part
// that its first and last frames depend on are read too, and given to
// the engine as frames not to score (vmaf.Context.Skip): the frame before
// the part, whose picture the motion of the part's first frame compares
// with (and, with --subsample, back to a frame the subsampling counts
// from), and the frame after it, which the motion2 of its last frame
// looks ahead to. The part's output is libvmaf's document of its own
// frames plus a section "vmafsink_shard" (partSection) that holds every
// frame's exact values and the exact aggregate state, from which
// vmaf-score merge writes what the whole run would have written.

// shardSpec is --shard or --frames as given.
type shardSpec struct {
	index, count int // --shard I/N; count 0 with --frames
	first, end   int // --frames A:B; end -1: to the end of the run
}

func (sp *shardSpec) String() string {
	if sp.count > 0 {
		return fmt.Sprintf("--shard %d/%d", sp.index, sp.count)
	}
	if sp.end < 0 {
		return fmt.Sprintf("--frames %d:", sp.first)
	}
	return fmt.Sprintf("--frames %d:%d", sp.first, sp.end)
}

func (s *settings) setShard(v string) error {
	i, n, ok := strings.Cut(v, "/")
	si, err1 := strconv.Atoi(i)
	sn, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || sn < 1 || si < 0 || si >= sn {
		return invalid(v, "--shard", "I/N with 0 <= I < N, such as 0/4")
	}
	if s.shard != nil {
		return usagef("only one of --shard and --frames, once")
	}
	s.shard = &shardSpec{index: si, count: sn, end: -1}
	return nil
}

func (s *settings) setFrames(v string) error {
	a, b, ok := strings.Cut(v, ":")
	first, err := strconv.Atoi(a)
	end := -1
	if ok && b != "" {
		end, err = strconv.Atoi(b)
		if err == nil && end <= first {
			err = fmt.Errorf("empty")
		}
	}
	if !ok || err != nil || first < 0 {
		return invalid(v, "--frames", "A:B with 0 <= A < B (frames A to B-1), or A: for A to the end")
	}
	if s.shard != nil {
		return usagef("only one of --shard and --frames, once")
	}
	s.shard = &shardSpec{first: first, end: end}
	return nil
}

// checkShard refuses what a part cannot be joined from. A part keeps no
// analytics of its own: windows, drops and percentiles are the whole
// run's, which the merge computes from the parts' exact scores.
func (s *settings) checkShard() error {
	if s.shard == nil {
		return nil
	}
	switch {
	case s.output == "":
		return usagef("%s needs -o/--output: the part's results are what vmaf-score merge joins", s.shard)
	case s.format != report.XML && s.format != report.JSON:
		return usagef("%s writes XML or JSON (a CSV or subtitle file has no room for what merge needs); merge writes any format", s.shard)
	case s.worstDir != "":
		return usagef("%s: --worst-dir belongs to the whole run", s.shard)
	case s.useRunner():
		return usagef("%s scores a part of a run for merge; --mcp-*, --metrics-addr and model swaps are for whole runs", s.shard)
	case s.align == "pts":
		return usagef("%s pairs frames by order; --align pts is for whole runs", s.shard)
	case s.plot != "":
		return usagef("%s: --plot belongs to the whole run", s.shard)
	case s.engine == "libvmaf":
		return usagef("%s needs the native engine", s.shard)
	case s.ref == "-" || s.dist == "-":
		return usagef("%s reads files, not standard input", s.shard)
	}
	s.live = analytics.Config{}
	return nil
}

// givenOption is one option as parsed: its long name and value.
type givenOption struct{ name, value string }

// partOptions are the options that do not change what a part holds, so
// that parts of one run may differ in them; every other option is part of
// the run's identity.
var partOptions = map[string]bool{
	"shard": true, "frames": true, "output": true, "xml": true, "json": true, "csv": true, "sub": true,
	"quiet": true, "progress": true,
}

// runArgs are the options that make the run, as a command line that
// parseArgs reads back.
func runArgs(given []givenOption) []string {
	var args []string
	for _, g := range given {
		if partOptions[g.name] {
			continue
		}
		o, _ := findLong(g.name)
		if o != nil && o.value == "" {
			args = append(args, "--"+g.name)
			continue
		}
		args = append(args, "--"+g.name+"="+g.value)
	}
	return args
}

// shardRun scores a part: the engine sink of the run, fed by job.run,
// which decides per frame whether the engine scores it or only reads it.
type shardRun struct {
	j           *job
	first, end  int // the part's frames [first, end); end -1: to the run's end
	from        int // the first frame read (first, or the frames before it)
	runEnd      int // the run's end by --frame_cnt; -1 without
	want        int // the frames read from `from`; 0: to the end of the inputs
	eng         *engineSink
	n           int // frames handed to the engine
	times       []timedPair
	lastEnd     time.Duration
	rec         partRecord
	err         error
	start       time.Time
	totalFrames int // the run's frame count as the inputs announce it; 0 unknown
}

// runShard works out the part's frames and scores them through job.run.
func (j *job) runShard(ctx context.Context) error {
	s := j.s
	sr := &shardRun{j: j, runEnd: -1, lastEnd: analytics.NoTime, start: time.Now()}
	if s.frameCnt > 0 {
		sr.runEnd = s.frameCnt
	}
	rt, dt, err := j.inputFrames()
	if err != nil {
		return err
	}
	if rt > 0 && dt > 0 {
		sr.totalFrames = max(min(rt-s.skipRef, dt-s.skipDist), 0)
		if sr.runEnd >= 0 {
			sr.totalFrames = min(sr.totalFrames, sr.runEnd)
		}
	}
	sp := s.shard
	sr.first, sr.end = sp.first, sp.end
	if sp.count > 0 {
		t := sr.totalFrames
		if t == 0 {
			return fmt.Errorf("%s needs the run's frame count, which the inputs do not give; use --frames A:B", sp)
		}
		sr.first = sp.index * t / sp.count
		sr.end = (sp.index + 1) * t / sp.count
		if sp.index == sp.count-1 {
			sr.end = -1 // the last part takes whatever the count missed
		}
		if sr.end >= 0 && sr.end <= sr.first {
			return fmt.Errorf("%s is empty: the run has only %d frames", sp, t)
		}
	}
	if sr.runEnd >= 0 && (sr.end < 0 || sr.end > sr.runEnd) {
		sr.end = sr.runEnd
	}
	if sr.end >= 0 && sr.end <= sr.first {
		return fmt.Errorf("%s starts at frame %d, after the run's last frame (%d)", sp, sr.first, sr.end-1)
	}
	if sr.totalFrames > 0 && sr.first >= sr.totalFrames && sr.end < 0 {
		return fmt.Errorf("%s starts at frame %d; the inputs hold %d", sp, sr.first, sr.totalFrames)
	}
	// The frame before the part, moved back to a frame --subsample
	// counts from, so that the engine's count of frames matches the run's.
	if sr.first > 0 {
		step := max(s.subsample, 1)
		sr.from = (sr.first - 1) / step * step
	}
	if sr.end >= 0 {
		sr.want = sr.end - sr.from
		if sr.runEnd < 0 || sr.end < sr.runEnd {
			sr.want++ // the frame after the part
		}
	}
	s.skipRef += sr.from
	s.skipDist += sr.from
	s.frameCnt = sr.want
	j.shard = sr
	return j.run(ctx)
}

// inputFrames counts each input's frames: from the size of a .y4m or raw
// file, from the packets of an input FFmpeg reads.
func (j *job) inputFrames() (ref, dist int, err error) {
	s := j.s
	count := func(path string, isDist bool, src source) (int, error) {
		if s.kindOf(path, isDist) != readFFmpeg {
			return src.total(), nil
		}
		return s.countFFmpegFrames(path, isDist)
	}
	if ref, err = count(s.ref, false, j.ref); err == nil {
		dist, err = count(s.dist, true, j.dist)
	}
	return ref, dist, err
}

// newSink is the run's sink: an engine whose results come back with the
// run's frame numbers.
func (sr *shardRun) newSink() (sink, error) {
	eng, err := vmaf.NewContext(sr.j.engineConfig(sr.onResult))
	if err != nil {
		return nil, err
	}
	sr.eng = &engineSink{eng: eng, pairs: newPairPool(enginePairs(sr.j.s.threads))}
	return sr, nil
}

func (sr *shardRun) submit(r, d frame) error {
	g := sr.from + sr.n
	sr.n++
	if g < sr.first || sr.end >= 0 && g >= sr.end {
		return sr.eng.hand(r, d, sr.eng.eng.Skip)
	}
	t := analytics.NoTime
	if r.pts != noPTS && r.pts >= 0 {
		t = r.pts
	}
	sr.times = append(sr.times, timedPair{g, t})
	sr.lastEnd = analytics.NoTime
	if t >= 0 && r.dur > 0 {
		sr.lastEnd = t + r.dur
	}
	return sr.eng.hand(r, d, sr.eng.eng.Submit)
}

func (sr *shardRun) finish() error             { return sr.eng.finish() }
func (sr *shardRun) close()                    { sr.eng.close() }
func (sr *shardRun) aggregates() []vmaf.Metric { return sr.eng.aggregates() }

// onResult takes a scored frame of the part, on the engine's goroutine.
func (sr *shardRun) onResult(r *vmaf.Result) {
	r.Index += sr.from
	t := analytics.NoTime
	for len(sr.times) > 0 && sr.times[0].index < r.Index {
		sr.times = sr.times[1:]
	}
	if len(sr.times) > 0 && sr.times[0].index == r.Index {
		t = sr.times[0].t
		sr.times = sr.times[1:]
	}
	sr.rec.add(r, t)
	sr.j.results.add(r)
}

// complete gives the part's output its section, once every frame read
// has been scored: n frames were read from `from`.
func (sr *shardRun) complete(n int, stopErr error) error {
	if stopErr != nil {
		// An output without the section is no part: merge refuses it.
		return stopErr
	}
	read := sr.from + n // one past the last frame read
	end := read
	if sr.end >= 0 {
		end = min(read, sr.end)
	}
	// The part ends the run when the inputs ended before a frame after
	// it, or --frame_cnt ends the run there.
	eos := sr.end < 0 || read <= sr.end || end == sr.runEnd
	if end <= sr.first {
		return fmt.Errorf("%s: the inputs end at frame %d, before the part's first frame %d", sr.j.s.shard, read, sr.first)
	}
	f := sr.j.ref.format()
	sec := partSection{
		Version: partVersion,
		Run: partRun{
			Tool:   toolVersion(),
			Args:   runArgs(sr.j.s.given),
			Inputs: [2]partInput{inputOf(sr.j.s.ref), inputOf(sr.j.s.dist)},
			Width:  f.Width, Height: f.Height, BitDepth: f.BitDepth, Chroma: f.Chroma.String(),
		},
		Shard:   sr.j.s.shard.String(),
		First:   sr.first,
		End:     end,
		EOS:     eos,
		Read:    [2]int{sr.from, read},
		Decoded: [2]int{framesDecoded(sr.j.ref), framesDecoded(sr.j.dist)},
		Seconds: time.Since(sr.start).Seconds(),
		EndTime: int64(sr.lastEnd),
		Frames:  sr.rec.encode(),
	}
	sec.Aggregates = sr.eng.eng.AggregateStates()
	if sr.rec.err != nil {
		return sr.rec.err
	}
	raw, err := sec.marshal()
	if err != nil {
		return err
	}
	sr.j.out.SetSection(partSectionName, raw)
	return nil
}

// framesDecoded is what src's decoder produced; -1 when src does not
// decode.
func framesDecoded(src source) int {
	if dc, ok := src.(decodeCounter); ok {
		return dc.framesDecoded()
	}
	return -1
}

// inputOf identifies an input file by its name and size.
func inputOf(path string) partInput {
	in := partInput{Path: path, Size: -1}
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		in.Size = st.Size()
	}
	return in
}

// partRecord keeps a part's results exactly: each frame's number,
// running time and metric values, under the list of metric names it
// carries (a layout; normally one for the whole part).
type partRecord struct {
	layouts [][]string
	layout  []int
	index   []int64
	pts     []int64
	values  []float64
	err     error
}

func (pr *partRecord) add(r *vmaf.Result, t time.Duration) {
	li := -1
	for i, l := range pr.layouts {
		if len(l) == len(r.Metrics) && slices.EqualFunc(l, r.Metrics, func(n string, m vmaf.Metric) bool { return n == m.Name }) {
			li = i
			break
		}
	}
	if li < 0 {
		names := make([]string, len(r.Metrics))
		for i, m := range r.Metrics {
			names[i] = m.Name
		}
		li = len(pr.layouts)
		pr.layouts = append(pr.layouts, names)
	}
	pr.layout = append(pr.layout, li)
	pr.index = append(pr.index, int64(r.Index))
	pr.pts = append(pr.pts, int64(t))
	for _, m := range r.Metrics {
		pr.values = append(pr.values, m.Value)
	}
}
