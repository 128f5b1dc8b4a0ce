package ffsource

import (
	"errors"
	"fmt"

	"github.com/asticode/go-astiav"
)

// CountFrames counts the frames of url's video stream by reading its
// packets, without decoding them: exact where every packet holds one
// frame, as in the usual containers and codecs, where Info's Frames may
// be only the container's estimate.
func CountFrames(url string, opts Options) (int, error) {
	name := url
	if url == "-" {
		return 0, errors.New("standard input cannot be counted before it is read")
	}
	s := &Source{name: name}
	defer s.closeContexts()
	if err := s.open(url, opts); err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	idx := s.stream.Index()
	n := 0
	for {
		if err := s.fc.ReadFrame(s.pkt); err != nil {
			if errors.Is(err, astiav.ErrEof) {
				return n, nil
			}
			return n, fmt.Errorf("%s: reading packets: %w", name, err)
		}
		if s.pkt.StreamIndex() == idx {
			n++
		}
		s.pkt.Unref()
	}
}
