package tune

import (
	"errors"
	"fmt"
)

// Codec strings for manifests (RFC 6381's CODECS, as HLS and DASH take
// them), read from the encoder's headers, so that they name the profile
// and level the encode really has.

// codecString derives the CODECS value of an encode from its encoder's
// name and global header (extradata), and for VP9, whose bitstream
// carries no level, from its size, frame rate and bitrate.
func codecString(encoder string, extradata []byte, width, height int, fps, kbps float64, bitDepth int) (string, error) {
	switch encoder {
	case "libx264":
		return avcCodecString(extradata)
	case "libx265":
		return hevcCodecString(extradata)
	case "libsvtav1", "libaom-av1", "librav1e":
		return av1CodecString(extradata, bitDepth)
	case "libvpx-vp9":
		return vp9CodecString(width, height, fps, kbps, bitDepth)
	}
	return "", fmt.Errorf("no codec string for %s", encoder)
}

// annexBNALs splits an Annex B byte stream into NAL units.
func annexBNALs(b []byte) [][]byte {
	var nals [][]byte
	start := -1
	for i := 0; i+3 <= len(b); i++ {
		if b[i] == 0 && b[i+1] == 0 && b[i+2] == 1 {
			if start >= 0 {
				end := i
				for end > start && b[end-1] == 0 {
					end--
				}
				nals = append(nals, b[start:end])
			}
			start = i + 3
			i += 2
		}
	}
	if start >= 0 && start < len(b) {
		nals = append(nals, b[start:])
	}
	return nals
}

// unescape drops emulation prevention bytes (00 00 03 → 00 00).
func unescape(nal []byte) []byte {
	out := make([]byte, 0, len(nal))
	zeros := 0
	for _, c := range nal {
		if zeros >= 2 && c == 3 {
			zeros = 0
			continue
		}
		if c == 0 {
			zeros++
		} else {
			zeros = 0
		}
		out = append(out, c)
	}
	return out
}

func avcCodecString(extradata []byte) (string, error) {
	for _, nal := range annexBNALs(extradata) {
		if len(nal) >= 4 && nal[0]&0x1f == 7 {
			return fmt.Sprintf("avc1.%02X%02X%02X", nal[1], nal[2], nal[3]), nil
		}
	}
	// avcC: version 1, then profile, constraints, level.
	if len(extradata) >= 4 && extradata[0] == 1 {
		return fmt.Sprintf("avc1.%02X%02X%02X", extradata[1], extradata[2], extradata[3]), nil
	}
	return "", errors.New("H.264: no sequence parameter set in the encoder's header")
}

func hevcCodecString(extradata []byte) (string, error) {
	for _, nal := range annexBNALs(extradata) {
		if len(nal) < 3 || (nal[0]>>1)&0x3f != 33 { // SPS
			continue
		}
		b := unescape(nal[2:])
		// sps_video_parameter_set_id, max_sub_layers, temporal nesting:
		// one byte; then the general profile_tier_level: 12 bytes.
		if len(b) < 13 {
			break
		}
		ptl := b[1:13]
		space := ptl[0] >> 6
		tier := "L"
		if ptl[0]&0x20 != 0 {
			tier = "H"
		}
		profile := ptl[0] & 0x1f
		compat := uint32(ptl[1])<<24 | uint32(ptl[2])<<16 | uint32(ptl[3])<<8 | uint32(ptl[4])
		// The compatibility flags in reverse bit order, in hex.
		var rev uint32
		for i := 0; i < 32; i++ {
			if compat&(1<<i) != 0 {
				rev |= 1 << (31 - i)
			}
		}
		prefix := ""
		if space > 0 {
			prefix = string("ABC"[space-1])
		}
		s := fmt.Sprintf("hvc1.%s%d.%X.%s%d", prefix, profile, rev, tier, ptl[11])
		// Constraint bytes, trailing zero bytes left out.
		cons := ptl[5:11]
		n := len(cons)
		for n > 0 && cons[n-1] == 0 {
			n--
		}
		for _, c := range cons[:n] {
			s += fmt.Sprintf(".%X", c)
		}
		return s, nil
	}
	return "", errors.New("HEVC: no sequence parameter set in the encoder's header")
}

// bitReader reads bits most significant first.
type bitReader struct {
	b   []byte
	pos int
	err error
}

func (r *bitReader) u(n int) uint32 {
	var v uint32
	for i := 0; i < n; i++ {
		if r.pos/8 >= len(r.b) {
			r.err = errors.New("header ends early")
			return 0
		}
		v = v<<1 | uint32(r.b[r.pos/8]>>(7-r.pos%8)&1)
		r.pos++
	}
	return v
}

// av1CodecString reads the sequence header OBU (in an av1C record or
// bare) for av01.P.LLT.DD.
func av1CodecString(extradata []byte, depth int) (string, error) {
	b := extradata
	if len(b) >= 4 && b[0] == 0x81 { // av1C: marker and version 1
		b = b[4:]
	}
	for len(b) > 0 {
		hdr := b[0]
		typ := (hdr >> 3) & 0xf
		hasExt := hdr&4 != 0
		hasSize := hdr&2 != 0
		i := 1
		if hasExt {
			i++
		}
		size := len(b) - i
		if hasSize {
			var v, shift int
			for {
				if i >= len(b) {
					return "", errors.New("AV1: truncated OBU")
				}
				c := b[i]
				i++
				v |= int(c&0x7f) << shift
				shift += 7
				if c&0x80 == 0 {
					break
				}
			}
			size = v
		}
		if i+size > len(b) {
			return "", errors.New("AV1: truncated OBU")
		}
		if typ == 1 {
			return av1SequenceHeader(b[i:i+size], depth)
		}
		b = b[i+size:]
	}
	return "", errors.New("AV1: no sequence header in the encoder's header")
}

func av1SequenceHeader(b []byte, depth int) (string, error) {
	r := &bitReader{b: b}
	profile := r.u(3)
	r.u(1) // still_picture
	if r.u(1) == 1 {
		return "", errors.New("AV1: reduced still-picture header")
	}
	if r.u(1) == 1 { // timing_info_present
		return "", errors.New("AV1: sequence header with timing info (not read here)")
	}
	if r.u(1) == 1 { // initial_display_delay_present
		return "", errors.New("AV1: sequence header with display delays (not read here)")
	}
	r.u(5) // operating_points_cnt_minus_1 of the first point only matters
	r.u(12)
	level := r.u(5)
	tier := "M"
	if level > 7 && r.u(1) == 1 {
		tier = "H"
	}
	if r.err != nil {
		return "", fmt.Errorf("AV1: %w", r.err)
	}
	// The bit depth comes many fields later; it is the encoder's input's.
	return fmt.Sprintf("av01.%d.%02d%s.%02d", profile, level, tier, depth), nil
}

// vp9Levels are VP9's levels: the largest luma picture and luma sample
// rate, and the largest bitrate (kb/s), of each.
var vp9Levels = []struct {
	level      int
	picture    int
	sampleRate float64
	kbps       float64
}{
	{10, 36864, 829440, 200}, {11, 73728, 2764800, 800}, {20, 122880, 4608000, 1800}, {21, 245760, 9216000, 3600},
	{30, 552960, 20736000, 7200}, {31, 983040, 36864000, 12000}, {40, 2228224, 83558400, 18000},
	{41, 2228224, 160432128, 30000}, {50, 8912896, 311951360, 60000}, {51, 8912896, 588251136, 120000},
	{52, 8912896, 1176502272, 180000}, {60, 35651584, 1176502272, 180000}, {61, 35651584, 2353004544, 240000},
	{62, 35651584, 4706009088, 480000},
}

// vp9CodecString is vp09.PP.LL.DD with the level the encode fits in
// (libvpx signals none) and profile 0 or 2 by bit depth (4:2:0).
func vp9CodecString(width, height int, fps, kbps float64, depth int) (string, error) {
	pic := width * height
	for _, l := range vp9Levels {
		if pic <= l.picture && float64(pic)*fps <= l.sampleRate && kbps <= l.kbps {
			profile := 0
			if depth > 8 {
				profile = 2
			}
			return fmt.Sprintf("vp09.%02d.%d.%02d", profile, l.level, depth), nil
		}
	}
	return "", fmt.Errorf("VP9: %dx%d at %g fps and %.0f kb/s is beyond every level", width, height, fps, kbps)
}
