package element

/*
#include <stdlib.h>
#include "gstglue.h"
*/
import "C"

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"unsafe"

	"github.com/go-gst/go-glib/glib"
	"github.com/vmafsink/vmafsink/internal/framerate"
	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/report"
	"github.com/vmafsink/vmafsink/vmaf"
)

// settings holds every property value; one lock (vmafSink.settingsMu)
// guards it. A run copies it when it starts, so changes reach the next
// run, except pause-mode and frame-message, which a running element also
// applies at once.
type settings struct {
	model              string
	psnr, ssim, msSSIM bool
	featureList        string // libvmaf --feature requests, ';'-separated
	poolMethod         vmaf.PoolMethod
	threads            uint
	subsample          uint
	resultsFilename    string
	resultsFormat      report.Format
	frameMessage       bool
	sync               bool
	engine             engineKind
	pairing            pipeline.Pairing
	fps                framerate.Rate // both streams conformed to it (fps.go); zero: as they come
	backpressure       pipeline.Backpressure
	maxPending         uint
	maxLead            uint   // 0: no lead limit
	worstFrames        uint   // worst frames kept with pictures (worst.go)
	worstDir           string // where the worst frames' pictures go at EOS (worst.go)
	mcpUDS             string
	mcpHTTP            string // loopback HOST:PORT
	mcpHTTPTokenFile   string
	metricsAddr        string
	mcpAllowGID        int // -1: the owner only
	mcpReadOnlyGID     int // -1: none
	mcpMaxClients      uint
	pauseMode          pipeline.PauseMode
	pauseBlockLimit    uint // milliseconds; 0: none
	modelDirs          string
	noReference        bool         // dist_sink alone, a no-reference model (noref.go)
	tiny               tinySettings // learned models (noref.go)
	live               liveSettings // windows, percentiles, alerts (analytics.go)
	up                 upstreamSettings
}

type engineKind int

const (
	engineAuto engineKind = iota
	engineNative
	engineLibvmaf
)

func (k engineKind) String() string {
	return [...]string{"auto", "native", "libvmaf"}[k]
}

const defaultModel = "vmaf_v0.6.1"

// defaultPauseBlockLimit (ms) keeps gst-launch -e stoppable while a block
// pause holds the streams: its EOS waits behind the held frames, and the
// host offers nothing else to notice a stop by.
const defaultPauseBlockLimit = 1000

func defaultSettings() settings {
	return settings{
		model:         defaultModel,
		poolMethod:    vmaf.PoolMean,
		subsample:     1,
		resultsFormat: report.XML,
		frameMessage:  true,
		maxPending:    pipeline.DefaultMaxPending,
		maxLead:       pipeline.DefaultMaxLead,
		worstFrames:   pipeline.DefaultWorstFrames,
		mcpMaxClients: 32,
		mcpAllowGID:   -1,

		mcpReadOnlyGID: -1,

		pauseBlockLimit: defaultPauseBlockLimit,
		live:            liveSettings{alertFrames: 1},
	}
}

// leadLimit is max-lead as pipeline.Config takes it: negative for none.
func (s *settings) leadLimit() int {
	if s.maxLead == 0 {
		return -1
	}
	return int(s.maxLead)
}

// ModelDirs splits the model-dirs property: directories separated by the
// platform's list separator, as in PATH.
func (s *settings) modelDirList() []string {
	var dirs []string
	for _, d := range filepath.SplitList(s.modelDirs) {
		if d = strings.TrimSpace(d); d != "" {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// property defines one GObject property: its name, its spec, how a value
// is stored into settings, and how it is read back. Property ids are
// indices into properties, which is the one place properties are defined.
// spec makes a new GParamSpec that nothing frees, so only class init
// calls it, once per property; everything else goes by name.
type property struct {
	name string
	// pass: vmafpass has the property too. Only what the inner fakesink
	// does (sync and the sink's own properties) is vmafsink's alone.
	pass bool
	spec func() *glib.ParamSpec
	set  func(s *settings, v *glib.Value) error
	get  func(e *vmafSink, s *settings) (*glib.Value, error)
}

const (
	rw      = glib.ParameterReadWrite
	ro      = glib.ParameterReadable
	maxUint = math.MaxInt32
)

var properties = func() []property {
	all := slices.Concat(ownProperties, compatProperties, []property{logLevelProperty})
	for i := range all {
		all[i].pass = !sinkOnly[all[i].name]
	}
	return all
}()

// sinkOnly are the properties of the inner fakesink, which vmafpass,
// whose reference goes out of its src pad instead, does not have.
// no-reference too: vmafpass's reference is the stream it passes on.
var sinkOnly = map[string]bool{"sync": true, "no-reference": true}

// liveProperties take effect at once in a running element; the others at
// the next start (GST_PARAM_MUTABLE_READY).
var liveProperties = map[string]bool{"pause-mode": true, "frame-message": true, "log-level": true}

var ownProperties = []property{
	{
		name: "model",
		spec: func() *glib.ParamSpec {
			d := defaultModel
			return glib.NewStringParam("model", "Model",
				"VMAF model: a built-in version ("+strings.Join(builtinVersions(), ", ")+"), a model file path, "+
					"or libvmaf's spec grammar version=NAME|path=FILE[:name=KEY][:OPTION=VALUE...]", &d, rw)
		},
		set: func(s *settings, v *glib.Value) error { return setString(&s.model, v, defaultModel) },
		get: func(_ *vmafSink, s *settings) (*glib.Value, error) { return glib.GValue(s.model) },
	},
	boolProperty("no-reference", "No reference",
		"Score the distorted stream alone with a no-reference learned model (model=path=/…/nr_metric_v1.onnx): "+
			"only dist_sink is linked; a linked ref_sink refuses the start",
		func(s *settings) *bool { return &s.noReference }),
	uintProperty("tiny-threads", "Learned model threads", "ONNX Runtime's threads per learned model (0: the model's default, 1)",
		0, 256, 0, func(s *settings) *uint { return &s.tiny.threads }),
	stringProperty("tiny-device", "Learned model device",
		"Where learned models run: cpu (unset), or cuda, tensorrt, openvino when the ONNX Runtime library has them "+
			"(refused at start otherwise, never a silent fallback)",
		func(s *settings) *string { return &s.tiny.device }),
	boolProperty("tiny-model-verify", "Verify learned models",
		"Refuse learned models whose sha256 no registry.json beside them pins",
		func(s *settings) *bool { return &s.tiny.verify }),
	stringProperty("ort-library", "ONNX Runtime library",
		"The ONNX Runtime library (libonnxruntime.so.1) learned models run on (unset: $VMAF_ORT_LIBRARY, then beside "+
			"the plugin, then the system's); the first learned model a process loads fixes it",
		func(s *settings) *string { return &s.tiny.library }),
	boolProperty("psnr", "PSNR", "Also compute PSNR (psnr_y, psnr_cb, psnr_cr; psnr-y in frame messages)",
		func(s *settings) *bool { return &s.psnr }),
	boolProperty("ssim", "SSIM", "Also compute SSIM (float_ssim; ssim in frame messages)",
		func(s *settings) *bool { return &s.ssim }),
	boolProperty("ms-ssim", "MS-SSIM", "Also compute MS-SSIM (float_ms_ssim; ms-ssim in frame messages)",
		func(s *settings) *bool { return &s.msSSIM }),
	checkedString(property{
		name: "features",
		spec: func() *glib.ParamSpec {
			return glib.NewStringParam("features", "Features",
				"Extra metrics in libvmaf's --feature grammar, NAME or NAME=option=value:option=value, several "+
					"separated by ';', e.g. \"cambi=full_ref=true;ciede;psnr=enable_chroma=false\" (extractors: "+
					strings.Join(vmaf.ExtractorNames(), ", ")+"). A request for psnr, float_ssim or float_ms_ssim "+
					"replaces the boolean property's. Each frame message and the results file carry their outputs "+
					"under libvmaf's names", nil, rw)
		},
		set: func(s *settings, v *glib.Value) error { return setString(&s.featureList, v, "") },
		get: func(_ *vmafSink, s *settings) (*glib.Value, error) { return glib.GValue(s.featureList) },
	}, func(s *settings) error { _, err := featureRequests(s.featureList); return err }),
	enumProperty("pool-method", "Pool method", "How the pooled message's score summarises the frames' scores",
		C.vs_pool_method_get_type(), int(vmaf.PoolMean), func(s *settings) *int { return (*int)(&s.poolMethod) }),
	uintProperty("threads", "Threads", "Scoring worker threads (0: one per CPU)", 0, 1024, 0,
		func(s *settings) *uint { return &s.threads }),
	uintProperty("subsample", "Subsample", "Score every Nth frame pair; the frames between still count for motion", 1, maxUint, 1,
		func(s *settings) *uint { return &s.subsample }),
	stringProperty("results-filename", "Results filename",
		"Write per-frame and pooled scores to this file, in vmaf-score's schema; the file is a valid document "+
			"throughout the run and complete at EOS or when the element stops (unset: no file)",
		func(s *settings) *string { return &s.resultsFilename }),
	markSet(enumProperty("results-format", "Results format",
		"Format of results-filename (unset: chosen by its extension, .json or .csv, else xml)",
		C.vs_results_format_get_type(), int(report.XML), func(s *settings) *int { return (*int)(&s.resultsFormat) }),
		func(s *settings) *bool { return &s.up.resultsFormatSet }),
	boolPropertyDefault("sync", "Sync",
		"Hold each reference frame until its running time on the pipeline clock, as a sink with sync=true does "+
			"(off: score as fast as frames arrive, which live sources pace anyway)", false,
		func(s *settings) *bool { return &s.sync }),
	boolPropertyDefault("frame-message", "Frame message",
		"Post an element message named VMAF (type=frame) on the bus for every scored frame", true,
		func(s *settings) *bool { return &s.frameMessage }),
	enumProperty("engine", "Engine", "Scoring engine",
		C.vs_engine_get_type(), int(engineAuto), func(s *settings) *int { return (*int)(&s.engine) }),
	enumProperty("pairing", "Pairing", "How reference and distorted frames are matched",
		C.vs_pairing_get_type(), int(pipeline.PairByTimestamp), func(s *settings) *int { return (*int)(&s.pairing) }),
	fractionProperty("fps", "Frame rate",
		"Conform both streams to this rate before pairing, as FFmpeg's fps filter (and vmaf-score --fps) does: each frame's "+
			"timestamp rounded to the rate, frames repeated where a stream is slower and dropped where it is faster; "+
			"0/1 (the default): frames as they come",
		func(s *settings) *framerate.Rate { return &s.fps }),
	enumProperty("backpressure", "Back-pressure", "What happens when scoring is slower than the streams",
		C.vs_backpressure_get_type(), int(pipeline.Block), func(s *settings) *int { return (*int)(&s.backpressure) }),
	uintProperty("max-pending", "Max pending",
		"Frames per pad held while waiting for their partner (buffers of a bounded pool zero-copy up to 8 or half the pool, "+
			"copied beyond; buffers from no pool copied at once). A full pad waits "+
			"for the other; if the other delivers nothing for 1 s (a tee whose other branch has more latency than this), "+
			"its oldest frames are released and counted as unpaired instead, so the pipeline never deadlocks",
		1, 100000, pipeline.DefaultMaxPending, func(s *settings) *uint { return &s.maxPending }),
	uintProperty("max-lead", "Max lead",
		"Frames a pad may hold ahead of the other while the other keeps delivering: two independent sources then "+
			"stay this close instead of one running max-pending frames ahead. If the other pad delivers nothing for "+
			"0.5 s (or four of its frame intervals) while one waits at this lead, as when a tee's other branch needs "+
			"this pad's frames first, the wait is given up once and only max-pending applies until the next flush. "+
			"Pads with a live source upstream never wait at the lead (0: no lead limit)",
		0, 100000, pipeline.DefaultMaxLead, func(s *settings) *uint { return &s.maxLead }),
	uintProperty("worst-frames", "Worst frames",
		"With the control plane on (mcp-uds or mcp-http) or worst-dir set: keep the pictures of this many lowest-scoring "+
			"frames so far, downscaled to at most 640 px wide, for vmaf_worst_frames and worst-dir (0: none). A scored pair's buffers then go back "+
			"when its score is known, one frame later (buffers of a bounded pool are copied instead)",
		0, pipeline.MaxWorstRecords, pipeline.DefaultWorstFrames, func(s *settings) *uint { return &s.worstFrames }),
	stringProperty("worst-dir", "Worst frames directory",
		"At EOS, write the worst-frames lowest-scoring frames as DIR/frame-NNNNNN-KIND.png (reference, distorted and "+
			"a difference heatmap, at most 640 px wide), created if need be, and list them in results-filename's "+
			"worst_frames section; without the control plane too (unset: none written)",
		func(s *settings) *string { return &s.worstDir }),
	stringProperty("mcp-uds", "MCP socket",
		"Serve the agent control plane (Model Context Protocol) on this Unix socket while the element runs (unset: off)",
		func(s *settings) *string { return &s.mcpUDS }),
	stringProperty("mcp-http", "MCP over HTTP",
		"Serve the agent control plane over HTTP on this loopback address while the element runs, HOST:PORT with "+
			"HOST 127.0.0.1, ::1 or localhost: MCP Streamable HTTP at /mcp, HTTP+SSE at /sse; alone or beside mcp-uds. "+
			"Other addresses, and a port in use, refuse the start (unset: off)",
		func(s *settings) *string { return &s.mcpHTTP }),
	stringProperty("mcp-http-token-file", "MCP HTTP token file",
		"A file holding a bearer token, read at start, that every mcp-http request must carry "+
			"(Authorization: Bearer TOKEN; 401 without it). Unset: any local user may connect over HTTP",
		func(s *settings) *string { return &s.mcpHTTPTokenFile }),
	stringProperty("metrics-addr", "Prometheus metrics address",
		"Serve Prometheus metrics at /metrics on this HOST:PORT while the element runs, bound exactly as given "+
			"(e.g. 127.0.0.1:9464; a wildcard host only when written so). A port in use refuses the start (unset: off)",
		func(s *settings) *string { return &s.metricsAddr }),
	intProperty("mcp-allow-gid", "MCP allowed group",
		"Also let processes whose primary group is this gid use the mcp-uds socket (mode 0660, given to that group); "+
			"peers are checked with SO_PEERCRED (-1: the element's own user only; 0 is refused)",
		-1, math.MaxInt32, -1, func(s *settings) *int { return &s.mcpAllowGID }),
	intProperty("mcp-readonly-gid", "MCP read-only group",
		"Let processes whose primary group is this gid use the mcp-uds socket to read (status, scores, models, live updates) "+
			"but not to swap, pause or resume, which they are refused with read_only; checked with SO_PEERCRED. "+
			"The socket is given to this group (mode 0660), or with mcp-allow-gid too, mode 0666 with SO_PEERCRED telling "+
			"the groups apart (-1: none; 0 is refused). mcp-http has no peer credentials: its clients have full access",
		-1, math.MaxInt32, -1, func(s *settings) *int { return &s.mcpReadOnlyGID }),
	uintProperty("mcp-max-clients", "MCP client limit",
		"Clients the control plane serves at once, over mcp-uds and mcp-http together; one more is refused with a JSON-RPC error saying so. "+
			"One process may hold at most half of them, and a client must send initialize within 5 s",
		1, 1024, 32, func(s *settings) *uint { return &s.mcpMaxClients }),
	enumProperty("pause-mode", "Pause mode", "What a pause requested over the control plane does",
		C.vs_pause_mode_get_type(), int(pipeline.PauseSkip), func(s *settings) *int { return (*int)(&s.pauseMode) }),
	uintProperty("pause-block-limit", "Pause block limit",
		"Longest time in milliseconds a pause in pause-mode=block holds the streaming threads; then the measurement "+
			"resumes by itself (a warning says so) and no frame is lost. Bounded so that a pipeline stopped with EOS "+
			"(gst-launch-1.0 -e) cannot wait forever behind a pause (0: no limit)",
		0, maxUint, defaultPauseBlockLimit, func(s *settings) *uint { return &s.pauseBlockLimit }),
	stringProperty("model-dirs", "Model directories",
		"Directories, separated by ':', whose model files the control plane may list and load",
		func(s *settings) *string { return &s.modelDirs }),
	uintProperty("window-frames", "Window frames",
		"Post a window message (type=window) with the score's statistics over the last N scored frames, every "+
			"window-step scored frames; exclusive with window-duration (0: off)",
		0, maxUint, 0, func(s *settings) *uint { return &s.live.windowFrames }),
	uint64Property("window-duration", "Window duration",
		"Post a window message over each span of this many nanoseconds of running time, tumbling; frames "+
			"without a running time count in no window; exclusive with window-frames (0: off)",
		0, math.MaxInt64, 0, func(s *settings) *uint64 { return &s.live.windowDuration }),
	uintProperty("window-step", "Window step",
		"With window-frames: a window message every N scored frames (0: every window-frames frames, tumbling)",
		0, maxUint, 0, func(s *settings) *uint { return &s.live.windowStep }),
	checkedString(stringProperty("percentiles", "Percentiles",
		"Percentiles of the score, 0 to 100 separated by commas (\"1,5,10,50\"), in window messages (p1, p5, ...), "+
			"the pooled message (<model>-p1, ...) and the results file (pooled_metrics' p1, ...) (empty: none)",
		func(s *settings) *string { return &s.live.percentiles }),
		func(s *settings) error { _, err := parsePercentilesProperty(s.live.percentiles); return err }),
	doubleProperty("alert-threshold", "Alert threshold",
		"Post an alert message (type=alert) when the score stays below this for alert-frames scored frames "+
			"(state=begin) and when it recovers or the stream ends (state=end) (0: off)",
		0, 100, 0, func(s *settings) *float64 { return &s.live.alertThreshold }),
	uintProperty("alert-frames", "Alert frames",
		"Consecutive scored frames below alert-threshold that make a quality drop",
		1, maxUint, 1, func(s *settings) *uint { return &s.live.alertFrames }),
	{
		name: "frames-scored",
		spec: func() *glib.ParamSpec {
			return glib.NewUint64Param("frames-scored", "Frames scored", "Frames scored so far in the current or last run",
				0, math.MaxUint64, 0, ro)
		},
		get: func(e *vmafSink, _ *settings) (*glib.Value, error) { return glib.GValue(e.framesScored.Load()) },
	},
	{
		name: "last-score",
		spec: func() *glib.ParamSpec {
			return glib.NewFloat64Param("last-score", "Last score", "Score of the last scored frame",
				-math.MaxFloat64, math.MaxFloat64, 0, ro)
		},
		get: func(e *vmafSink, _ *settings) (*glib.Value, error) {
			return glib.GValue(math.Float64frombits(e.lastScore.Load()))
		},
	},
}

// Property ids a running element reacts to at once.
var (
	propPauseMode    = propertyIndex("pause-mode")
	propFrameMessage = propertyIndex("frame-message")
	propLogLevel     = propertyIndex("log-level")
)

func propertyIndex(name string) uint {
	for i, p := range properties {
		if p.name == name {
			return uint(i)
		}
	}
	panic("vmafsink: no property " + name)
}

// markSet makes a property record that the application set it.
func markSet(p property, flag func(*settings) *bool) property {
	set := p.set
	p.set = func(s *settings, v *glib.Value) error {
		if err := set(s, v); err != nil {
			return err
		}
		*flag(s) = true
		return nil
	}
	return p
}

// paramSpecs builds the specs; class init calls it once.
func paramSpecs() []*glib.ParamSpec {
	specs := make([]*glib.ParamSpec, len(properties))
	for i, p := range properties {
		specs[i] = p.spec()
	}
	return specs
}

func boolProperty(name, nick, blurb string, field func(*settings) *bool) property {
	return boolPropertyDefault(name, nick, blurb, false, field)
}

func boolPropertyDefault(name, nick, blurb string, def bool, field func(*settings) *bool) property {
	return valueProperty(name, "a boolean",
		func() *glib.ParamSpec { return glib.NewBoolParam(name, nick, blurb, def, rw) }, field)
}

func uintProperty(name, nick, blurb string, min, max, def uint, field func(*settings) *uint) property {
	return valueProperty(name, "an unsigned integer",
		func() *glib.ParamSpec { return glib.NewUintParam(name, nick, blurb, min, max, def, rw) }, field)
}

func intProperty(name, nick, blurb string, min, max, def int, field func(*settings) *int) property {
	return valueProperty(name, "an integer",
		func() *glib.ParamSpec { return glib.NewIntParam(name, nick, blurb, min, max, def, rw) }, field)
}

func uint64Property(name, nick, blurb string, min, max, def uint64, field func(*settings) *uint64) property {
	return valueProperty(name, "an unsigned 64-bit integer",
		func() *glib.ParamSpec { return glib.NewUint64Param(name, nick, blurb, min, max, def, rw) }, field)
}

func doubleProperty(name, nick, blurb string, min, max, def float64, field func(*settings) *float64) property {
	return valueProperty(name, "a double",
		func() *glib.ParamSpec { return glib.NewFloat64Param(name, nick, blurb, min, max, def, rw) }, field)
}

// valueProperty is a read-write property whose spec's values GoValue
// returns as T, kept in a settings field of that type; what names T in
// the error for a value of another type.
func valueProperty[T any](name, what string, spec func() *glib.ParamSpec, field func(*settings) *T) property {
	return property{
		name: name,
		spec: spec,
		set: func(s *settings, v *glib.Value) error {
			x, err := v.GoValue()
			if err != nil {
				return err
			}
			t, ok := x.(T)
			if !ok {
				return fmt.Errorf("%s: want %s, got %T", name, what, x)
			}
			*field(s) = t
			return nil
		},
		get: func(_ *vmafSink, s *settings) (*glib.Value, error) { return glib.GValue(*field(s)) },
	}
}

// stringProperty is a read-write string property, unset by default; a
// NULL value unsets it.
func stringProperty(name, nick, blurb string, field func(*settings) *string) property {
	return property{
		name: name,
		spec: func() *glib.ParamSpec { return glib.NewStringParam(name, nick, blurb, nil, rw) },
		set:  func(s *settings, v *glib.Value) error { return setString(field(s), v, "") },
		get:  func(_ *vmafSink, s *settings) (*glib.Value, error) { return glib.GValue(*field(s)) },
	}
}

// checkedString makes a property refuse a value that check, run on the
// settings once the value is stored, refuses. The value is kept even so:
// the start then fails saying why, as it would for a value set before
// the element had this check.
func checkedString(p property, check func(*settings) error) property {
	set := p.set
	p.set = func(s *settings, v *glib.Value) error {
		if err := set(s, v); err != nil {
			return err
		}
		return check(s)
	}
	return p
}

func enumProperty(name, nick, blurb string, typ C.GType, def int, field func(*settings) *int) property {
	return property{
		name: name,
		spec: func() *glib.ParamSpec { return enumSpec(name, nick, blurb, typ, def) },
		set: func(s *settings, v *glib.Value) error {
			*field(s) = enumOf(v)
			return nil
		},
		get: func(_ *vmafSink, s *settings) (*glib.Value, error) { return enumValue(typ, *field(s)), nil },
	}
}

// fractionProperty is a GstFraction property kept as a framerate.Rate;
// 0/1 unsets it.
func fractionProperty(name, nick, blurb string, field func(*settings) *framerate.Rate) property {
	return property{
		name: name,
		spec: func() *glib.ParamSpec {
			cname, cnick, cblurb := C.CString(name), C.CString(nick), C.CString(blurb)
			defer C.free(unsafe.Pointer(cname))
			defer C.free(unsafe.Pointer(cnick))
			defer C.free(unsafe.Pointer(cblurb))
			return glib.ToParamSpec(unsafe.Pointer(C.vs_fraction_param(cname, cnick, cblurb, C.GParamFlags(rw))))
		},
		set: func(s *settings, v *glib.Value) error {
			var num, den C.gint
			if C.vs_value_get_fraction((*C.GValue)(unsafe.Pointer(v.GValue)), &num, &den) == 0 {
				return fmt.Errorf("%s: want a fraction", name)
			}
			switch {
			case num == 0:
				*field(s) = framerate.Rate{}
			case num < 0 || den <= 0:
				return fmt.Errorf("%s: %d/%d is not a positive rate", name, num, den)
			default:
				*field(s) = framerate.Rate{Num: int64(num), Den: int64(den)}
			}
			return nil
		},
		get: func(_ *vmafSink, s *settings) (*glib.Value, error) {
			r := *field(s)
			if r.Num == 0 {
				r = framerate.Rate{Num: 0, Den: 1}
			}
			return glib.ValueFromNativeOwned(unsafe.Pointer(C.vs_value_new_fraction(C.gint(r.Num), C.gint(r.Den)))), nil
		},
	}
}

func enumSpec(name, nick, blurb string, typ C.GType, def int) *glib.ParamSpec {
	cname, cnick, cblurb := C.CString(name), C.CString(nick), C.CString(blurb)
	defer C.free(unsafe.Pointer(cname))
	defer C.free(unsafe.Pointer(cnick))
	defer C.free(unsafe.Pointer(cblurb))
	p := C.vs_enum_param(cname, cnick, cblurb, typ, C.gint(def), C.GParamFlags(rw))
	return glib.ToParamSpec(unsafe.Pointer(p))
}

func enumOf(v *glib.Value) int {
	return int(C.vs_value_get_enum((*C.GValue)(unsafe.Pointer(v.GValue))))
}

func enumValue(typ C.GType, v int) *glib.Value {
	return glib.ValueFromNativeOwned(unsafe.Pointer(C.vs_value_new_enum(typ, C.gint(v))))
}

func setString(dst *string, v *glib.Value, unset string) error {
	x, err := v.GoValue()
	if err != nil {
		return err
	}
	switch s := x.(type) {
	case string:
		*dst = s
	case nil:
		*dst = unset
	default:
		return fmt.Errorf("want a string, got %T", x)
	}
	return nil
}

func builtinVersions() []string { return vmaf.BuiltinModelVersions() }
