/* Per-component views of a mapped video frame, for the formats whose
 * samples are not one plane per component in the low bits (semi-planar
 * NV12/NV21/P010/P012, MSB-aligned high bit depths). */
#ifndef VMAFSINK_VIDEOCOMP_H
#define VMAFSINK_VIDEOCOMP_H

#include <gst/video/video.h>

/* Component c (0: Y, 1: U, 2: V) of a mapped frame: its first sample, the
 * bytes between rows (*stride) and between samples of a row (*pstride).
 * NULL when the format has no such component. */
guint8 *vs_frame_comp(GstVideoFrame *frame, gint c, gint *stride, gint *pstride);
/* How many bits component c's samples are shifted up within their word. */
gint vs_info_comp_shift(const GstVideoInfo *info, gint c);

#endif
