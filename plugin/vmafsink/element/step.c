/* Step events. vmafsink's inner fakesink performs them (a step sent to the
 * element goes to it, as GstBin sends events to its sinks) and posts
 * STEP_DONE when the stepped frames have reached it, that is, once the
 * scorer has taken them, before they are scored. The element takes that
 * message on its way out of the bin and posts it as its own once those
 * frames are scored (vmafsinkStepDone, step.go). */
#include "gstglue.h"

#include "_cgo_export.h"

static void (*bin_handle_message)(GstBin *bin, GstMessage *message);

static void vs_handle_message(GstBin *bin, GstMessage *message) {
  if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_STEP_DONE && GST_MESSAGE_SRC(message) != GST_OBJECT(bin)) {
    if (!vmafsinkStepDone(GST_OBJECT(bin), message))
      vs_post_step_done(GST_ELEMENT(bin), message);
    return;
  }
  /* The inner sink prerolls again on the frame after a step: while the
   * step's STEP_DONE waits, so does that preroll, as a sink's comes after
   * its STEP_DONE. */
  if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ASYNC_DONE && vmafsinkHoldAsyncDone(GST_OBJECT(bin), message))
    return;
  bin_handle_message(bin, message);
}

void vs_bin_message(GstElement *e, GstMessage *message) { bin_handle_message(GST_BIN(e), message); }

void vs_step_class_init(GstElementClass *klass) {
  GstBinClass *bin = GST_BIN_CLASS(klass);
  bin_handle_message = GST_BIN_CLASS(g_type_class_peek_parent(klass))->handle_message;
  bin->handle_message = vs_handle_message;
}

void vs_post_step_done(GstElement *e, GstMessage *done) {
  GstFormat format;
  guint64 amount, duration;
  gdouble rate;
  gboolean flush, intermediate, eos;
  gst_message_parse_step_done(done, &format, &amount, &rate, &flush, &intermediate, &duration, &eos);
  GstMessage *m = gst_message_new_step_done(GST_OBJECT(e), format, amount, rate, flush, intermediate, duration, eos);
  gst_message_set_seqnum(m, gst_message_get_seqnum(done));
  gst_message_unref(done);
  gst_element_post_message(e, m);
}

void vs_message_unref(GstMessage *m) { gst_message_unref(m); }

GstFormat vs_step_done_format(GstMessage *done) {
  GstFormat format;
  gst_message_parse_step_done(done, &format, NULL, NULL, NULL, NULL, NULL, NULL);
  return format;
}
