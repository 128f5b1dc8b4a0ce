package ffsource

// A libavfilter graph between the decoder and the pictures a Source
// hands out: the C side keeps the graph and its two ends together, so
// that sizes, formats and rates at the sink can be read back (go-astiav
// does not expose them) and the graph's filters listed.

/*
#cgo pkg-config: libavfilter libavutil
#include <stdlib.h>
#include <string.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersrc.h>
#include <libavfilter/buffersink.h>
#include <libavutil/frame.h>
#include <libavutil/mem.h>

typedef struct {
	AVFilterGraph *graph;
	AVFilterContext *src, *sink;
} vs_graph;

static void vs_graph_free(vs_graph *g) {
	avfilter_graph_free(&g->graph);
	g->src = g->sink = NULL;
}

// vs_graph_open builds buffer -> desc -> buffersink for frames described
// by srcargs. stage says how far it got: 1 allocating, 2 parsing (the
// filters are created and initialised here), 3 configuring.
static int vs_graph_open(vs_graph *g, const char *desc, const char *srcargs, int *stage) {
	AVFilterInOut *outs = NULL, *ins = NULL;
	int ret;
	*stage = 1;
	g->graph = avfilter_graph_alloc();
	if (!g->graph) return AVERROR(ENOMEM);
	// Filters the graph inserts to convert formats scale as FFmpeg's
	// command-line tool has them scale.
	g->graph->scale_sws_opts = av_strdup("flags=bicubic");
	ret = avfilter_graph_create_filter(&g->src, avfilter_get_by_name("buffer"), "in", srcargs, NULL, g->graph);
	if (ret < 0) return ret;
	ret = avfilter_graph_create_filter(&g->sink, avfilter_get_by_name("buffersink"), "out", NULL, NULL, g->graph);
	if (ret < 0) return ret;
	outs = avfilter_inout_alloc();
	ins = avfilter_inout_alloc();
	if (!outs || !ins) { ret = AVERROR(ENOMEM); goto end; }
	outs->name = av_strdup("in");
	outs->filter_ctx = g->src;
	ins->name = av_strdup("out");
	ins->filter_ctx = g->sink;
	*stage = 2;
	ret = avfilter_graph_parse_ptr(g->graph, desc, &ins, &outs, NULL);
	if (ret < 0) goto end;
	*stage = 3;
	ret = avfilter_graph_config(g->graph, NULL);
end:
	avfilter_inout_free(&ins);
	avfilter_inout_free(&outs);
	return ret;
}

static int vs_graph_push(vs_graph *g, AVFrame *f) {
	if (f) f->pts = f->best_effort_timestamp;
	return av_buffersrc_add_frame_flags(g->src, f, AV_BUFFERSRC_FLAG_KEEP_REF);
}

static int vs_graph_pull(vs_graph *g, AVFrame *f) { return av_buffersink_get_frame(g->sink, f); }

static int vs_sink_w(vs_graph *g) { return av_buffersink_get_w(g->sink); }
static int vs_sink_h(vs_graph *g) { return av_buffersink_get_h(g->sink); }
static int vs_sink_format(vs_graph *g) { return av_buffersink_get_format(g->sink); }
static AVRational vs_sink_time_base(vs_graph *g) { return av_buffersink_get_time_base(g->sink); }
static AVRational vs_sink_frame_rate(vs_graph *g) { return av_buffersink_get_frame_rate(g->sink); }
static int vs_graph_filters(vs_graph *g) { return g->graph ? (int)g->graph->nb_filters : 0; }
static const char *vs_graph_filter_name(vs_graph *g, int i) { return g->graph->filters[i]->filter->name; }
static int vs_filter_exists(const char *name) { return avfilter_get_by_name(name) != NULL; }
static int64_t vs_frame_pts(const AVFrame *f) { return f->pts; }
*/
import "C"

import (
	"fmt"
	"time"
	"unsafe"

	"github.com/asticode/go-astiav"
)

// filterGraph is a configured libavfilter graph with one video input and
// one video output.
type filterGraph struct {
	c       C.vs_graph
	tb      astiav.Rational // of the frames at the sink
	rate    astiav.Rational // at the sink; zero when variable or unknown
	flushed bool
}

// sourceArgs describe the decoder's frames to the graph's buffer source
// as FFmpeg's command-line tool does: the stream's time base, sample
// aspect ratio and frame rate.
type sourceArgs struct {
	width, height int
	pixFmt        astiav.PixelFormat
	timeBase      astiav.Rational
	aspect        astiav.Rational
	rate          astiav.Rational
}

func (a sourceArgs) String() string {
	s := fmt.Sprintf("video_size=%dx%d:pix_fmt=%d:time_base=%d/%d", a.width, a.height, int(a.pixFmt), a.timeBase.Num(), a.timeBase.Den())
	if a.aspect.Num() > 0 && a.aspect.Den() > 0 {
		s += fmt.Sprintf(":pixel_aspect=%d/%d", a.aspect.Num(), a.aspect.Den())
	} else {
		s += ":pixel_aspect=0/1"
	}
	if a.rate.Num() > 0 && a.rate.Den() > 0 {
		s += fmt.Sprintf(":frame_rate=%d/%d", a.rate.Num(), a.rate.Den())
	}
	return s
}

// newFilterGraph builds desc (FFmpeg's filter graph syntax, one input
// and one output) after a buffer source of frames described by src. Its
// errors name the filter at fault where that can be told.
func newFilterGraph(desc string, src sourceArgs) (*filterGraph, error) {
	chain, err := splitChain(desc)
	if err != nil {
		return nil, err
	}
	for _, f := range chain {
		if !filterExists(f.name) {
			return nil, fmt.Errorf("no such FFmpeg filter %q", f.name)
		}
	}
	g := &filterGraph{}
	stage, err := g.open(desc, src)
	if err == nil {
		return g, nil
	}
	g.free()
	return nil, explainGraphError(desc, chain, src, stage, err)
}

func (g *filterGraph) open(desc string, src sourceArgs) (int, error) {
	cdesc, cargs := C.CString(desc), C.CString(src.String())
	defer C.free(unsafe.Pointer(cdesc))
	defer C.free(unsafe.Pointer(cargs))
	var stage C.int
	if ret := C.vs_graph_open(&g.c, cdesc, cargs, &stage); ret < 0 {
		return int(stage), avError(ret)
	}
	tb := C.vs_sink_time_base(&g.c)
	g.tb = astiav.NewRational(int(tb.num), int(tb.den))
	if r := C.vs_sink_frame_rate(&g.c); r.num > 0 && r.den > 0 {
		g.rate = astiav.NewRational(int(r.num), int(r.den))
	}
	return 0, nil
}

// explainGraphError turns FFmpeg's error code (its own message goes to
// the silenced log) into one naming the filter at fault: a chain's
// filters are tried one prefix at a time, and the first prefix that
// fails names the filter that made it fail.
func explainGraphError(desc string, chain []chainFilter, src sourceArgs, stage int, err error) error {
	what := "cannot be set up"
	if stage == 3 {
		what = "cannot be configured"
	}
	if len(chain) > 1 && linear(chain) {
		for i := range chain {
			trial := &filterGraph{}
			_, terr := trial.open(joinChain(chain[:i+1]), src)
			trial.free()
			if terr != nil {
				err = terr
				desc = chain[i].text
				break
			}
		}
	}
	return fmt.Errorf("filter %q %s for %dx%d %s input (%w)", desc, what, src.width, src.height, src.pixFmt.Name(), err)
}

func (g *filterGraph) free() { C.vs_graph_free(&g.c) }

// push gives the graph a decoded frame, or nil to flush it at the end.
func (g *filterGraph) push(f *astiav.Frame) error {
	if f == nil {
		if g.flushed {
			return nil
		}
		g.flushed = true
		return avError(C.vs_graph_push(&g.c, nil))
	}
	return avError(C.vs_graph_push(&g.c, cFrame(f)))
}

// pull takes the next filtered frame into f: astiav.ErrEagain when the
// graph needs more input, astiav.ErrEof once it is drained.
func (g *filterGraph) pull(f *astiav.Frame) error {
	return avError(C.vs_graph_pull(&g.c, cFrame(f)))
}

// output is the format of the frames at the sink.
func (g *filterGraph) output() (w, h int, pf astiav.PixelFormat) {
	return int(C.vs_sink_w(&g.c)), int(C.vs_sink_h(&g.c)), astiav.PixelFormat(C.vs_sink_format(&g.c))
}

// filters names the graph's filters, those it inserted included.
func (g *filterGraph) filters() []string {
	n := int(C.vs_graph_filters(&g.c))
	names := make([]string, n)
	for i := range names {
		names[i] = C.GoString(C.vs_graph_filter_name(&g.c, C.int(i)))
	}
	return names
}

// timing is a filtered frame's presentation time and duration.
func (g *filterGraph) timing(f *astiav.Frame) (pts, dur time.Duration) {
	ns := astiav.NewRational(1, int(time.Second))
	pts = NoPTS
	if ts := int64(C.vs_frame_pts(cFrame(f))); ts != noPTSValue {
		pts = time.Duration(astiav.RescaleQ(ts, g.tb, ns))
	}
	if g.rate.Num() > 0 {
		dur = time.Duration(astiav.RescaleQ(1, astiav.NewRational(g.rate.Den(), g.rate.Num()), ns))
	} else if d := frameDuration(f); d > 0 {
		dur = time.Duration(astiav.RescaleQ(d, g.tb, ns))
	}
	return pts, dur
}

func filterExists(name string) bool {
	cn := C.CString(name)
	defer C.free(unsafe.Pointer(cn))
	return C.vs_filter_exists(cn) != 0
}

// avError is FFmpeg's error code as a Go error (nil for success).
func avError(ret C.int) error {
	if ret >= 0 {
		return nil
	}
	return astiav.Error(int(ret))
}
