#include "videocomp.h"

guint8 *vs_frame_comp(GstVideoFrame *frame, gint c, gint *stride, gint *pstride) {
  if (c >= (gint)GST_VIDEO_FRAME_N_COMPONENTS(frame)) {
    *stride = 0;
    *pstride = 0;
    return NULL;
  }
  *stride = GST_VIDEO_FRAME_COMP_STRIDE(frame, c);
  *pstride = GST_VIDEO_FRAME_COMP_PSTRIDE(frame, c);
  return GST_VIDEO_FRAME_COMP_DATA(frame, c);
}

gint vs_info_comp_shift(const GstVideoInfo *info, gint c) {
  return GST_VIDEO_FORMAT_INFO_SHIFT(info->finfo, c);
}
