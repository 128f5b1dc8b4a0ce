// Package tune finds encoder settings by measuring them: a target-quality
// CRF search whose probes are encoded in-process through FFmpeg's
// libraries and scored by the vmaf engine as their packets leave the
// encoder, and the Bjøntegaard delta rate between two rate-quality
// curves, as Netflix's calculate_bd_rate defines it.
package tune
