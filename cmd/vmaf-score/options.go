package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/vmafsink/vmafsink/analytics"
	"github.com/vmafsink/vmafsink/internal/plot"
	"github.com/vmafsink/vmafsink/pipeline"
	"github.com/vmafsink/vmafsink/report"
)

// settings is the parsed command line.
type settings struct {
	ref, dist string
	dists     []string // every -d, globs expanded, in order; dist is the first

	// Raw .yuv geometry; any of -w/-h/-p/-b marks the inputs as raw.
	width, height int
	pixFmt        string // "420", "422" or "444"
	bitDepth      int
	raw           bool

	models       []string // -m specs, parsed by vmaf.ParseModelSpec
	features     []string
	noPrediction bool
	// commonBitDepth scores inputs of different bit depths at the deeper
	// one (--aom_ctc v6.0 and later).
	commonBitDepth bool

	output    string
	format    report.Format
	formatSet bool
	plot      string // --plot: the picture of the per-frame scores, .svg or .png
	summary   string // --summary: with several -d, the JSON summary's path

	threads, subsample  int
	cpuMask             int // libvmaf's --cpumask: kernel sets turned off
	frameCnt            int
	skipRef, skipDist   int
	quiet, showProgress bool

	engine    string // "", "native" or "libvmaf"
	useFFmpeg bool   // decode both inputs with FFmpeg whatever their names
	scaleDist string // swscale algorithm to bring the distorted input to the reference's size
	// scale is --scale as given ("auto" or WxH); scaleW, scaleH the
	// size both inputs are scored at (auto: settled from the reference).
	scale          string
	scaleW, scaleH int
	// filters are --ref-filter and --dist-filter: FFmpeg filter graphs
	// applied to each input as it is decoded ("" none).
	filters       [2]string
	streams       [2]int    // which video stream of each FFmpeg input: 0 the first
	align         string    // "order" or "pts"
	fps           frameRate // --fps: both inputs conformed to it; zero: as they come
	sync          int       // --sync auto=WINDOW: the window in frames; 0: none
	mcpSocket     string
	mcpHTTP       string   // loopback HOST:PORT for MCP over HTTP
	mcpTokenFile  string   // bearer token file for --mcp-http
	mcpMaxClients int      // 0: the control plane's default
	modelDirs     []string // directories whose model files an agent may swap in
	// worstFrames is --worst-frames; nil: pipeline.DefaultWorstFrames.
	worstFrames *int
	// worstDir is --worst-dir: where the worst frames' pictures go as
	// PNG when the run ends; "" none.
	worstDir string
	// mcpRecent is --mcp-recent: the frames whose full records the
	// control plane keeps (0: pipeline.DefaultRecent).
	mcpRecent int
	// metricsAddr is --metrics-addr: HOST:PORT for Prometheus' /metrics;
	// metricsPush is --metrics-push: a Pushgateway's URL.
	metricsAddr, metricsPush string
	// mcpReadOnlyGID is --mcp-readonly-gid (0: none); controlLog is
	// --control-log, the control plane's log ("-": stderr; "": none).
	mcpReadOnlyGID int
	controlLog     string
	// live is the analytics the run keeps (--pool-percentiles,
	// --window-*, --alert-*); the zero value keeps none.
	live analytics.Config
	// onProgress, set by vmaf-score mcp, is told of every frame read and
	// the total when known (0 when not).
	onProgress func(done, total int)
	// demuxers and protocols, set by vmaf-score mcp, restrict what FFmpeg
	// may open (see ffsource.Options).
	demuxers, protocols string

	// tiny is the learned models' options (learned.go).
	tiny tinySettings

	help, version, listFeatures bool

	// valueOf holds each option's value as given, to refuse a second
	// value that would silently replace the first.
	valueOf map[string]string

	// shard is --shard or --frames: the part of the run to score (nil:
	// all of it); given is every option as parsed, in order, which a
	// part records so that a merge can check and redo the run's setup.
	shard *shardSpec
	given []givenOption
}

// usageError is a bad command line: the tool prints it with a hint to
// --help and exits with status 1, as libvmaf's tool does.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// option is one command-line option: its short letter (0 for none), its
// long name, and what to do with it. set is nil for a flag without value.
type option struct {
	short byte
	long  string
	value string // placeholder shown in the usage text; "" for a flag
	help  string
	set   func(s *settings, v string) error
}

// options mirrors libvmaf 3.2's vmaf tool (cli_parse.c), followed by this
// tool's own additions (from "engine" on).
var options = []option{
	{'r', "reference", "PATH", "reference video: .y4m, .yuv, or any file FFmpeg opens; - for stdin",
		func(s *settings, v string) error { s.ref = v; return nil }},
	{'d', "distorted", "PATH", "distorted video, as --reference; repeat it (or give a glob) to score several against one reading of the reference",
		func(s *settings, v string) error { return s.addDistorted(v) }},
	{'w', "width", "N", "width of raw .yuv input",
		func(s *settings, v string) error { s.raw = true; return parseUint(v, "-w/--width", &s.width) }},
	{'h', "height", "N", "height of raw .yuv input",
		func(s *settings, v string) error { s.raw = true; return parseUint(v, "-h/--height", &s.height) }},
	{'p', "pixel_format", "420|422|444", "chroma subsampling of raw .yuv input",
		func(s *settings, v string) error {
			s.raw = true
			if v != "420" && v != "422" && v != "444" {
				return invalid(v, "-p/--pixel_format", "a valid pixel format (420/422/444)")
			}
			s.pixFmt = v
			return nil
		}},
	{'b', "bitdepth", "8|10|12|16", "bit depth of raw .yuv input",
		func(s *settings, v string) error {
			s.raw = true
			if err := parseUint(v, "-b/--bitdepth", &s.bitDepth); err != nil {
				return err
			}
			if s.bitDepth != 8 && s.bitDepth != 10 && s.bitDepth != 12 && s.bitDepth != 16 {
				return invalid(v, "-b/--bitdepth", "a valid bitdepth (8/10/12/16)")
			}
			return nil
		}},
	{'m', "model", "SPEC", "model: version=NAME or path=FILE, with :name=KEY (repeatable; default version=vmaf_v0.6.1)",
		func(s *settings, v string) error { s.models = append(s.models, v); return nil }},
	{'o', "output", "PATH", "write per-frame and pooled scores to PATH (- for stdout)",
		func(s *settings, v string) error { s.output = v; return nil }},
	{0, "xml", "", "output as XML (default)", setFormat(report.XML)},
	{0, "json", "", "output as JSON", setFormat(report.JSON)},
	{0, "csv", "", "output as CSV", setFormat(report.CSV)},
	{0, "sub", "", "output as MicroDVD subtitles", setFormat(report.Sub)},
	{0, "plot", "FILE", "draw each model's per-frame score, its mean, swaps, pauses and the worst frames to FILE (.svg or .png)",
		func(s *settings, v string) error {
			if _, err := plot.FormatOf(v); err != nil {
				return invalid(v, "--plot", "a file name ending in .svg or .png")
			}
			s.plot = v
			return nil
		}},
	{0, "threads", "N", "scoring threads",
		func(s *settings, v string) error { return parseUint(v, "--threads", &s.threads) }},
	{0, "feature", "NAME[=OPT=VAL:...]", "extra feature extractor, with options (repeatable; --list-features lists them)",
		func(s *settings, v string) error {
			return s.addFeature("--feature", v)
		}},
	{0, "subsample", "N", "score only every Nth frame",
		func(s *settings, v string) error { return parseUint(v, "--subsample", &s.subsample) }},
	{'c', "cpumask", "MASK", "restrict the vector kernels as libvmaf does (bits: 1 SSE2, 2 SSSE3, 4 SSE4.1, 8 AVX2, 16 AVX-512)",
		func(s *settings, v string) error { return parseUint(v, "-c/--cpumask", &s.cpuMask) }},
	{0, "gpumask", "MASK", "accepted for compatibility; ignored",
		func(s *settings, v string) error { var n int; return parseUint(v, "--gpumask", &n) }},
	{0, "aom_ctc", "VERSION", "AOM common test conditions preset: models and features (v1.0 to v7.0)",
		func(s *settings, v string) error { return s.applyPreset("--aom_ctc", v, aomCTC) }},
	{0, "nflx_ctc", "VERSION", "Netflix common test conditions preset (v1.0)",
		func(s *settings, v string) error { return s.applyPreset("--nflx_ctc", v, nflxCTC) }},
	{0, "frame_cnt", "N", "score at most N frames",
		func(s *settings, v string) error { return parseUint(v, "--frame_cnt", &s.frameCnt) }},
	{0, "frame_skip_ref", "N", "skip the first N reference frames",
		func(s *settings, v string) error { return parseUint(v, "--frame_skip_ref", &s.skipRef) }},
	{0, "frame_skip_dist", "N", "skip the first N distorted frames",
		func(s *settings, v string) error { return parseUint(v, "--frame_skip_dist", &s.skipDist) }},
	{'n', "no_prediction", "", "extract features only; no model scores",
		func(s *settings, _ string) error { s.noPrediction = true; return nil }},
	{'v', "version", "", "print the version and exit",
		func(s *settings, _ string) error { s.version = true; return nil }},
	{'q', "quiet", "", "no progress line",
		func(s *settings, _ string) error { s.quiet = true; return nil }},

	{0, "engine", "native|libvmaf", "scoring engine (default: native; libvmaf, when built in, for models only it can compute)",
		func(s *settings, v string) error {
			if v != "native" && v != "libvmaf" && v != "auto" {
				return invalid(v, "--engine", "native or libvmaf")
			}
			s.engine = v
			return nil
		}},
	{0, "ffmpeg", "", "decode both inputs with FFmpeg, even .y4m and .yuv",
		func(s *settings, _ string) error { s.useFFmpeg = true; return nil }},
	{0, "scale-dist", "ALGO", "scale the distorted video to the reference's size (bicubic, lanczos, bilinear, area, ...)",
		func(s *settings, v string) error {
			if err := checkScaleAlgorithm(v); err != nil {
				return err
			}
			s.scaleDist = v
			return nil
		}},
	{0, "scale", "WxH|auto", "scale both inputs to this viewing resolution before scoring (swscale bicubic, or --scale-dist's algorithm; aspect kept by auto only); auto: 1080p, or 2160p for inputs above 1440p, with the matching model when no -m is given, inputs within 90% of it kept at their size",
		func(s *settings, v string) error { return parseScale(v, s) }},
	{0, "ref-filter", "GRAPH", "run an FFmpeg filter graph on the reference as it is decoded (crop=1920:800, yadif, zscale=t=linear,tonemap=hable,zscale=t=bt709:p=bt709:m=bt709,format=yuv420p, ...); before --scale and --fps",
		func(s *settings, v string) error { return setFilter(s, 0, v) }},
	{0, "dist-filter", "GRAPH", "run an FFmpeg filter graph on the distorted input as it is decoded, as --ref-filter does",
		func(s *settings, v string) error { return setFilter(s, 1, v) }},
	{0, "ref-stream", "N", "score the reference's Nth video stream (FFmpeg inputs; 0, the first, by default)",
		func(s *settings, v string) error { return parseUint(v, "--ref-stream", &s.streams[0]) }},
	{0, "dist-stream", "N", "score the distorted input's Nth video stream",
		func(s *settings, v string) error { return parseUint(v, "--dist-stream", &s.streams[1]) }},
	{0, "align", "order|pts", "pair frames by order (default) or by presentation timestamp",
		func(s *settings, v string) error {
			if v != "order" && v != "pts" {
				return invalid(v, "--align", "order or pts")
			}
			s.align = v
			return nil
		}},
	{0, "fps", "RATE", "conform both inputs to RATE frames per second (24, 30000/1001, 29.97) as FFmpeg's fps filter does: frames repeated or dropped by timestamp",
		func(s *settings, v string) error {
			r, err := parseFrameRate(v)
			if err != nil {
				return invalid(v, "--fps", "a frame rate such as 24, 30000/1001 or 29.97")
			}
			s.fps = r
			return nil
		}},
	{0, "summary", "FILE", "with several -d: also write the summary (each input's frames and pooled scores) as JSON to FILE",
		func(s *settings, v string) error { s.summary = v; return nil }},
	{0, "sync", "auto[=FRAMES]", fmt.Sprintf("find the frame offset between the inputs within FRAMES of the start (default %d) by their downscaled luma, report it and score with it", defaultSyncWindow),
		func(s *settings, v string) (err error) { s.sync, err = parseSync(v); return err }},
	{0, "mcp-uds", "SOCK", "serve live scores and commands over MCP on this Unix socket",
		func(s *settings, v string) error { s.mcpSocket = v; return nil }},
	{0, "mcp-http", "ADDR:PORT", "serve the same over MCP Streamable HTTP (/mcp) and HTTP+SSE (/sse) on this loopback address (port 0: any free port, printed on stderr)",
		func(s *settings, v string) error { s.mcpHTTP = v; return nil }},
	{0, "mcp-http-token-file", "FILE", "with --mcp-http: every request must carry the bearer token this file holds",
		func(s *settings, v string) error { s.mcpTokenFile = v; return nil }},
	{0, "mcp-max-clients", "N", "with --mcp-uds or --mcp-http: clients served at once, on both (default 32; one process may hold half of the socket's)",
		func(s *settings, v string) error {
			if err := parseUint(v, "--mcp-max-clients", &s.mcpMaxClients); err != nil {
				return err
			}
			if s.mcpMaxClients < 1 || s.mcpMaxClients > 1024 {
				return invalid(v, "--mcp-max-clients", "between 1 and 1024")
			}
			return nil
		}},
	{0, "mcp-readonly-gid", "GID", "with --mcp-uds: processes whose primary group is GID may connect to read but not swap, pause or resume (read_only); the socket is given to the group (mode 0660)",
		func(s *settings, v string) error {
			if err := parseUint(v, "--mcp-readonly-gid", &s.mcpReadOnlyGID); err != nil {
				return err
			}
			if s.mcpReadOnlyGID == 0 {
				return invalid(v, "--mcp-readonly-gid", "a group other than root's (0)")
			}
			return nil
		}},
	{0, "control-log", "FILE", "with --mcp-uds or --mcp-http: log clients and every swap, pause and resume with the peer's pid and uid to FILE (appended; -: stderr)",
		func(s *settings, v string) error { s.controlLog = v; return nil }},
	{0, "model-dir", "DIR", "with --mcp-uds or --mcp-http: a directory whose model files an agent may swap in (repeatable)",
		func(s *settings, v string) error { s.modelDirs = append(s.modelDirs, v); return nil }},
	{0, "mcp-recent", "N", fmt.Sprintf("with --mcp-uds or --mcp-http: keep the full records (timestamps, features) of the last N frames for vmaf_score and vmaf_diagnose (default %d, at most %d); every frame's score is kept anyway", pipeline.DefaultRecent, maxMCPRecent),
		func(s *settings, v string) error {
			if err := parseUint(v, "--mcp-recent", &s.mcpRecent); err != nil {
				return err
			}
			if s.mcpRecent < 1 || s.mcpRecent > maxMCPRecent {
				return invalid(v, "--mcp-recent", fmt.Sprintf("between 1 and %d", maxMCPRecent))
			}
			return nil
		}},
	{0, "worst-dir", "DIR", "when the run ends, write the worst frames' pictures (reference, distorted, difference heatmap; downscaled to at most 640 wide) as DIR/frame-NNNNNN-KIND.png, as many as --worst-frames",
		func(s *settings, v string) error {
			if v == "" {
				return invalid(v, "--worst-dir", "a directory")
			}
			s.worstDir = v
			return nil
		}},
	{0, "worst-frames", "N", fmt.Sprintf("with --mcp-uds, --mcp-http or --worst-dir: keep the N worst frames' pictures, downscaled, for vmaf_worst_frames and --worst-dir (default %d, 0: none, at most %d)", pipeline.DefaultWorstFrames, pipeline.MaxWorstRecords),
		func(s *settings, v string) error {
			var n int
			if err := parseUint(v, "--worst-frames", &n); err != nil {
				return err
			}
			if n > pipeline.MaxWorstRecords {
				return invalid(v, "--worst-frames", fmt.Sprintf("at most %d", pipeline.MaxWorstRecords))
			}
			s.worstFrames = &n
			return nil
		}},
	{0, "metrics-addr", "HOST:PORT", "serve Prometheus metrics at /metrics on this address while scoring, bound as given (e.g. 127.0.0.1:9464; port 0: any free port, printed on stderr)",
		func(s *settings, v string) error {
			if v == "" {
				return invalid(v, "--metrics-addr", "HOST:PORT, e.g. 127.0.0.1:9464")
			}
			s.metricsAddr = v
			return nil
		}},
	{0, "metrics-push", "URL", "when the run ends, push its final metrics (as --metrics-addr serves them) to the Prometheus Pushgateway at URL, job vmaf-score",
		func(s *settings, v string) error {
			if err := checkPushURL(v); err != nil {
				return err
			}
			s.metricsPush = v
			return nil
		}},
	{0, "pool-percentiles", "P,P,...", "add these percentiles (0-100) of each model's score to the pooled metrics, as p1, p5, ... (e.g. 1,5,10,50)",
		func(s *settings, v string) error {
			ps, err := analytics.ParsePercentiles(v)
			if err != nil {
				return invalid(v, "--pool-percentiles", "percentiles between 0 and 100 separated by commas")
			}
			s.live.Percentiles = ps
			return nil
		}},
	{0, "window-frames", "N", "a window of the score's statistics over the last N scored frames, every --window-step frames (\"windows\" in the output)",
		func(s *settings, v string) error { return parseUint(v, "--window-frames", &s.live.WindowFrames) }},
	{0, "window-duration", "D", "windows over D of running time instead, tumbling (2s, 500ms, or seconds)",
		func(s *settings, v string) error {
			d, err := parseWindowDuration(v)
			s.live.WindowDuration = d
			return err
		}},
	{0, "window-step", "N", "with --window-frames: a window every N scored frames (default: N of --window-frames, tumbling)",
		func(s *settings, v string) error { return parseUint(v, "--window-step", &s.live.WindowStep) }},
	{0, "alert-threshold", "SCORE", "report a quality drop when the score stays below SCORE (on stderr and in the output; exit status unchanged)",
		func(s *settings, v string) error {
			x, err := parseThreshold(v)
			s.live.AlertThreshold = x
			return err
		}},
	{0, "alert-frames", "N", "with --alert-threshold: consecutive scored frames below it that make a drop (default 1)",
		func(s *settings, v string) error { return parseUint(v, "--alert-frames", &s.live.AlertFrames) }},
	{0, "shard", "I/N", "score only part I (from 0) of N equal contiguous parts of the run, for vmaf-score merge to join (output: XML or JSON)",
		func(s *settings, v string) error { return s.setShard(v) }},
	{0, "frames", "A:B", "score only frames A to B-1 of the run (A: to the end), for vmaf-score merge to join",
		func(s *settings, v string) error { return s.setFrames(v) }},
	{0, "list-features", "", "list the feature extractors, their options and outputs, and exit",
		func(s *settings, _ string) error { s.listFeatures = true; return nil }},
	{0, "progress", "", "show the progress line even when stderr is not a terminal",
		func(s *settings, _ string) error { s.showProgress = true; return nil }},
	{0, "help", "", "print this help and exit",
		func(s *settings, _ string) error { s.help = true; return nil }},
}

func setFormat(f report.Format) func(*settings, string) error {
	return func(s *settings, _ string) error {
		if s.formatSet && s.format != f {
			return usagef("--%s and --%s both given: one run writes one format (run it again for the other)", s.format, f)
		}
		s.format, s.formatSet = f, true
		return nil
	}
}

func invalid(v, opt, want string) error {
	return usagef("invalid argument %q for option %s; should be %s", v, opt, want)
}

// parseUint reads an unsigned integer in C's strtoul base-0 notation
// (decimal, 0x hex, 0 octal), as libvmaf does.
func parseUint(v, opt string, dst *int) error {
	n, err := strconv.ParseUint(v, 0, 31)
	if err != nil {
		return invalid(v, opt, "an integer")
	}
	*dst = int(n)
	return nil
}

// parseArgs reads the command line with getopt_long's rules: short
// options may be grouped (-qn) and take their value attached (-rref.y4m)
// or as the next argument; long options take "--name value" or
// "--name=value" and may be abbreviated to any unique prefix.
func parseArgs(args []string) (*settings, error) {
	s := &settings{align: "order"}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return nil, usagef("unexpected argument %q", args[i+1])
			}
			i = len(args)
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			o, err := findLong(name)
			if err != nil {
				return nil, err
			}
			if o.value == "" {
				if hasVal {
					return nil, usagef("option --%s takes no argument", o.long)
				}
			} else if !hasVal {
				if i+1 >= len(args) {
					return nil, usagef("option --%s needs an argument", o.long)
				}
				i++
				val = args[i]
			}
			if err := s.apply(o, val); err != nil {
				return nil, err
			}
			s.given = append(s.given, givenOption{o.long, val})
		case len(a) > 1 && a[0] == '-':
			consumed, err := parseShortGroup(s, a[1:], args[i+1:])
			if err != nil {
				return nil, err
			}
			i += consumed
		default:
			return nil, usagef("unexpected argument %q", a)
		}
	}
	return s, nil
}

// parseShortGroup handles one "-abc" argument; it returns how many of the
// following arguments it used as a value.
func parseShortGroup(s *settings, group string, rest []string) (int, error) {
	for j := 0; j < len(group); j++ {
		o := findShort(group[j])
		if o == nil {
			return 0, usagef("unknown option -%c", group[j])
		}
		if o.value == "" {
			if err := s.apply(o, ""); err != nil {
				return 0, err
			}
			s.given = append(s.given, givenOption{o.long, ""})
			continue
		}
		v, used := group[j+1:], 0
		if v == "" {
			if len(rest) == 0 {
				return 0, usagef("option -%c/--%s needs an argument", o.short, o.long)
			}
			v, used = rest[0], 1
		}
		s.given = append(s.given, givenOption{o.long, v})
		return used, s.apply(o, v)
	}
	return 0, nil
}

func findShort(c byte) *option {
	for i := range options {
		if options[i].short == c {
			return &options[i]
		}
	}
	return nil
}

// findLong looks a long option up by name or unique prefix. A prefix is
// first matched against libvmaf's own options, so an abbreviation that
// works with libvmaf's tool keeps its meaning here.
func findLong(name string) (*option, error) {
	for i := range options {
		if options[i].long == name {
			return &options[i], nil
		}
	}
	if name == "" {
		return nil, usagef("unknown option --")
	}
	for _, set := range [][]option{options[:ownOptions], options[ownOptions:]} {
		var match *option
		for i := range set {
			o := &set[i]
			if !strings.HasPrefix(o.long, name) {
				continue
			}
			if match != nil {
				return nil, usagef("option --%s is ambiguous (--%s, --%s, ...)", name, match.long, o.long)
			}
			match = o
		}
		if match != nil {
			return match, nil
		}
	}
	return nil, usagef("unknown option --%s", name)
}

// ownOptions is the index of the first option libvmaf's tool does not have.
var ownOptions = func() int {
	for i, o := range options {
		if o.long == "engine" {
			return i
		}
	}
	return len(options)
}()

// check applies libvmaf's rules for what must be given together.
func (s *settings) check() error {
	if s.ref == "" && !s.tiny.noReference {
		return usagef("reference (-r/--reference) is required")
	}
	if s.dist == "" {
		return usagef("distorted (-d/--distorted) is required")
	}
	if s.raw && (s.width == 0 || s.height == 0 || s.pixFmt == "" || s.bitDepth == 0) {
		return usagef("raw .yuv input needs all of --width/-w, --height/-h, --pixel_format/-p and --bitdepth/-b")
	}
	if s.ref == "-" && s.dist == "-" {
		return usagef("only one of --reference and --distorted can read standard input")
	}
	if s.mcpTokenFile != "" && s.mcpHTTP == "" {
		return usagef("--mcp-http-token-file needs --mcp-http")
	}
	if s.mcpReadOnlyGID != 0 && s.mcpSocket == "" {
		return usagef("--mcp-readonly-gid needs --mcp-uds (HTTP has no peer credentials: its clients have full access)")
	}
	if s.controlLog != "" && s.mcpSocket == "" && s.mcpHTTP == "" {
		return usagef("--control-log needs --mcp-uds or --mcp-http")
	}
	if s.worstFrames != nil && s.mcpSocket == "" && s.mcpHTTP == "" && s.worstDir == "" {
		return usagef("--worst-frames needs --mcp-uds, --mcp-http or --worst-dir")
	}
	if s.worstDir != "" && s.worstFrames != nil && *s.worstFrames == 0 {
		return usagef("--worst-dir with --worst-frames 0 would write nothing")
	}
	if s.worstDir != "" && s.engine == "libvmaf" {
		return usagef("--worst-dir keeps the pictures of frames the native engine scores; libvmaf's engine copies them away")
	}
	if s.mcpRecent != 0 && s.mcpSocket == "" && s.mcpHTTP == "" {
		return usagef("--mcp-recent needs --mcp-uds or --mcp-http")
	}
	if err := s.checkFilters(); err != nil {
		return err
	}
	if s.scale != "" && s.raw {
		return usagef("--scale reads the inputs through FFmpeg, which cannot read raw .yuv (-w/-h/-p/-b); convert them to .y4m")
	}
	if s.scale == "auto" && s.ref == "-" {
		return usagef("--scale auto reads the reference's size before the run, which standard input cannot give twice")
	}
	if s.sync > 0 && (s.ref == "-" || s.dist == "-") {
		return usagef("--sync reads the inputs' first frames twice, which standard input cannot give")
	}
	if s.sync > 0 && (s.skipRef > 0 || s.skipDist > 0) {
		return usagef("--sync finds the frames to skip itself; leave out --frame_skip_ref and --frame_skip_dist")
	}
	if err := s.checkMany(); err != nil {
		return err
	}
	if s.plot != "" && s.noPrediction {
		return usagef("--plot draws the models' scores, which --no_prediction leaves out")
	}
	if err := s.checkLive(); err != nil {
		return err
	}
	return s.checkShard()
}

// writeUsage prints the option list.
func writeUsage(w io.Writer) {
	fmt.Fprintf(w, "Usage: vmaf-score -r REFERENCE -d DISTORTED [options]\n"+
		"       vmaf-score mcp --allow DIR... [--output-dir DIR] [--jobs N] [--threads N]\n"+
		"       vmaf-score merge -o OUT PART...       (join the parts --shard/--frames wrote; merge --help)\n"+
		"       vmaf-score batch [--jobs N] [--shard I/N] JOBS   (score a list of pairs; batch --help)\n\n"+
		"Scores DISTORTED against REFERENCE with VMAF; a drop-in for libvmaf's vmaf tool.\n"+
		".y4m and raw .yuv (with -w -h -p -b) are read directly, anything else through FFmpeg.\n"+
		"vmaf-score mcp serves the same scoring to MCP clients on stdio (vmaf-score mcp --help).\n\n")
	for _, o := range options {
		name := "    --" + o.long
		if o.short != 0 {
			name = fmt.Sprintf("-%c, --%s", o.short, o.long)
		}
		if o.value != "" {
			name += " " + o.value
		}
		fmt.Fprintf(w, "  %-36s %s\n", name, o.help)
	}
}
