package main

import (
	"github.com/vmafsink/vmafsink/internal/y4m"
)

// --ref-filter and --dist-filter run an FFmpeg filter graph (crop,
// deinterlace, tone-map, ...) on an input as it is decoded, in this
// process through libavfilter. They come first: --scale, --scale-dist
// and --fps work on what the filters give, as if the user had filtered
// the file beforehand with ffmpeg -vf.

// filterFor is the filter graph given for the reference (isDist false)
// or the distorted input; "" for none.
func (s *settings) filterFor(isDist bool) string {
	if isDist {
		return s.filters[1]
	}
	return s.filters[0]
}

func (s *settings) anyFilter() bool { return s.filters[0] != "" || s.filters[1] != "" }

// checkFilters refuses what filters cannot be combined with.
func (s *settings) checkFilters() error {
	if !s.anyFilter() {
		return nil
	}
	if s.shard != nil {
		return usagef("%s: --ref-filter/--dist-filter may change the frame count, which a part's frame range is counted in; filter the inputs first", s.shard)
	}
	if s.engine == "libvmaf" {
		return usagef("--ref-filter/--dist-filter run FFmpeg's filters on the native engine's inputs; leave out --engine libvmaf")
	}
	return nil
}

// checkRawForFFmpeg returns the swapped-geometry warning of a raw input
// read through FFmpeg, and gives a filtered one the size check the native
// reader makes (filters would otherwise meet a misread picture first).
func (s *settings) checkRawForFFmpeg(path string, filtered bool) (string, error) {
	if !s.raw || path == "-" {
		return "", nil
	}
	f, err := openFile(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	rf := y4m.Format{Width: s.width, Height: s.height, BitDepth: s.bitDepth, Chroma: s.pixFmt}
	if filtered {
		if err := checkRawSize(path, f, rf, y4m.Padded); err != nil {
			return "", err
		}
	}
	return rawSwapWarning(path, f, rf), nil
}

func setFilter(s *settings, side int, v string) error {
	opt := [2]string{"--ref-filter", "--dist-filter"}[side]
	if v == "" {
		return invalid(v, opt, "an FFmpeg filter graph, e.g. crop=1920:800")
	}
	if err := checkFilterSyntax(v); err != nil {
		return invalid(v, opt, err.Error())
	}
	s.filters[side] = v
	return nil
}
