// Package y4m reads YUV4MPEG2 streams and raw planar YUV files.
package y4m
