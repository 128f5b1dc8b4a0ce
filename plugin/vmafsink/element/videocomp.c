#include "videocomp.h"

guint8 *vs_frame_comp(GstVideoFrame *frame, gint c, gint *stride, gint *pstride) {
  if (c >= (gint)GST_VIDEO_FRAME_N_COMPONENTS(frame)) {
    *stride = 0;
    *pstride = 0;
    return NULL;
  }
  const GstVideoFormatInfo *finfo = frame->info.finfo;
  *stride = GST_VIDEO_FRAME_COMP_STRIDE(frame, c);
  *pstride = GST_VIDEO_FRAME_COMP_PSTRIDE(frame, c);
  guint8 *plane = GST_VIDEO_FRAME_PLANE_DATA(frame, GST_VIDEO_FORMAT_INFO_PLANE(finfo, c));
  gint bytes = GST_VIDEO_FORMAT_INFO_DEPTH(finfo, c) > 8 ? 2 : 1;
  if (*pstride == 2 * bytes && GST_VIDEO_FORMAT_INFO_POFFSET(finfo, c) != 0) {
    /* The second of two interleaved components. GStreamer 1.22 gives
     * P010's and P012's V an offset of one byte, inside U's sample, so
     * the offset is taken as one sample instead. */
    return plane + bytes;
  }
  return plane + GST_VIDEO_FORMAT_INFO_POFFSET(finfo, c);
}

gint vs_info_comp_shift(const GstVideoInfo *info, gint c) {
  return GST_VIDEO_FORMAT_INFO_SHIFT(info->finfo, c);
}
