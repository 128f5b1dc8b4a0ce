/* The element is a bin whose one child is a fakesink, fed by a pad of the
 * element's own (not one of its pads: nothing outside sees it) with the
 * reference stream once each frame has reached the scorer. The fakesink
 * gives the element a GstBaseSink's behaviour: READY→PAUSED is ASYNC and
 * completes once the reference prerolls, a PAUSED pipeline holds the
 * stream, a flushing seek loses and regains state, EOS is posted in
 * PLAYING, position and latency are answered from the reference stream,
 * and the sync property is the fakesink's. */
#include "gstglue.h"

/* qdata keys for what the element keeps on itself. */
static G_DEFINE_QUARK(vmafsink-inner-pad, inner)
static G_DEFINE_QUARK(vmafsink-inner-sink, sink)
static G_DEFINE_QUARK(vmafsink-lead-side, lead)

GstPad *vs_inner_pad(GstElement *e) {
  return GST_PAD(g_object_get_qdata(G_OBJECT(e), inner_quark()));
}

/* The inner fakesink, borrowed (the element holds a reference until it is
 * finalized), or NULL for vmafpass, which has none. Kept rather than
 * looked up by name: the scoring loop asks for its state once a pair. */
GstElement *vs_inner_sink(GstElement *e) {
  return GST_ELEMENT(g_object_get_qdata(G_OBJECT(e), sink_quark()));
}

/* The sink pad whose stream goes on to the inner sink (and so prerolls,
 * syncs, answers position queries and carries EOS): ref_sink, or
 * dist_sink in no-reference mode, where it is the only stream. Set at
 * READY->PAUSED, before any pad is active. */
void vs_set_lead_side(GstElement *e, gint side) {
  g_object_set_qdata(G_OBJECT(e), lead_quark(), GINT_TO_POINTER(side + 1));
}

gint vs_lead_side(GstElement *e) {
  gpointer p = g_object_get_qdata(G_OBJECT(e), lead_quark());
  return p == NULL ? VS_REF : GPOINTER_TO_INT(p) - 1;
}

/* Upstream events from the fakesink (seeks, latency, reconfigure) go up
 * both branches, as events sent to the element do. */
static gboolean inner_event(GstPad *pad, GstObject *parent, GstEvent *event) {
  (void)parent;
  GstElement *e = GST_ELEMENT(gst_pad_get_element_private(pad));
  return vs_send_upstream(e, event);
}

/* The larger of the two branches' minimum latencies and the smaller of
 * their maxima, live when either is: both branches' frames must have
 * arrived before a pair is complete. */
gboolean vs_combined_latency(GstElement *e, GstQuery *query) {
  gboolean live_any = FALSE, answered = FALSE;
  GstClockTime min_all = 0, max_all = GST_CLOCK_TIME_NONE;
  const gchar *names[2] = {"ref_sink", "dist_sink"};
  for (gint i = 0; i < 2; i++) {
    GstPad *pad = gst_element_get_static_pad(e, names[i]);
    if (pad == NULL)
      continue;
    GstQuery *q = gst_query_new_latency();
    if (gst_pad_peer_query(pad, q)) {
      gboolean live;
      GstClockTime min, max;
      gst_query_parse_latency(q, &live, &min, &max);
      answered = TRUE;
      if (live) {
        live_any = TRUE;
        if (min > min_all)
          min_all = min;
        if (GST_CLOCK_TIME_IS_VALID(max) && (!GST_CLOCK_TIME_IS_VALID(max_all) || max < max_all))
          max_all = max;
      }
    }
    gst_query_unref(q);
    gst_object_unref(pad);
  }
  if (!answered)
    return FALSE;
  GST_CAT_DEBUG_OBJECT(vs_cat(e), e, "latency: live %d, min %" GST_TIME_FORMAT ", max %" GST_TIME_FORMAT,
      live_any, GST_TIME_ARGS(min_all), GST_TIME_ARGS(max_all));
  gst_query_set_latency(query, live_any, min_all, max_all);
  return TRUE;
}

static gboolean inner_query(GstPad *pad, GstObject *parent, GstQuery *query) {
  (void)parent;
  GstElement *e = GST_ELEMENT(gst_pad_get_element_private(pad));
  if (GST_QUERY_TYPE(query) == GST_QUERY_LATENCY)
    return vs_combined_latency(e, query);
  /* Position, duration and the rest: the lead stream's (the reference,
   * or the distorted stream in no-reference mode). */
  GstPad *ref = gst_element_get_static_pad(e, vs_lead_side(e) == VS_DIST ? "dist_sink" : "ref_sink");
  gboolean ok = ref != NULL && gst_pad_peer_query(ref, query);
  if (ref != NULL)
    gst_object_unref(ref);
  return ok;
}

static GstPad *inner_pad_new(GstElement *e, GstPadTemplate *templ) {
  GstPad *pad = templ ? gst_pad_new_from_template(templ, "src") : gst_pad_new("inner_src", GST_PAD_SRC);
  gst_pad_set_element_private(pad, e);
  gst_pad_set_event_function(pad, inner_event);
  gst_pad_set_query_function(pad, inner_query);
  return pad;
}

gboolean vs_inner_sink_add(GstElement *e) {
  GstElement *sink = gst_element_factory_make("fakesink", "sink");
  if (sink == NULL)
    return FALSE;
  g_object_set(sink, "sync", FALSE, "async", TRUE, "enable-last-sample", FALSE, "qos", FALSE, NULL);
  GstPad *pad = inner_pad_new(e, NULL);
  /* Not one of the element's pads, so that nothing outside sees it; the
   * element keeps it until it is finalized. */
  gst_object_ref_sink(pad);
  g_object_set_qdata_full(G_OBJECT(e), inner_quark(), pad, gst_object_unref);
  gst_bin_add(GST_BIN(e), sink);
  g_object_set_qdata_full(G_OBJECT(e), sink_quark(), gst_object_ref(sink), gst_object_unref);
  GstPad *sinkpad = gst_element_get_static_pad(sink, "sink");
  GstPadLinkReturn lr = gst_pad_link_full(pad, sinkpad, GST_PAD_LINK_CHECK_NOTHING);
  gst_object_unref(sinkpad);
  return lr == GST_PAD_LINK_OK;
}


void vs_inner_src_add(GstElement *e) {
  GstPadTemplate *templ = vs_src_template();
  GstPad *pad = inner_pad_new(e, templ);
  gst_object_unref(templ);
  g_object_set_qdata_full(G_OBJECT(e), inner_quark(), gst_object_ref(pad), gst_object_unref);
  gst_element_add_pad(e, pad);
}

void vs_inner_sink_set_sync(GstElement *e, gboolean sync) {
  GstElement *sink = vs_inner_sink(e);
  if (sink != NULL)
    g_object_set(sink, "sync", sync, NULL);
}

gboolean vs_inner_sink_playing(GstElement *e) {
  GstElement *sink = vs_inner_sink(e);
  if (sink == NULL)
    return TRUE;
  GST_OBJECT_LOCK(sink);
  gboolean playing = GST_STATE(sink) == GST_STATE_PLAYING;
  GST_OBJECT_UNLOCK(sink);
  return playing;
}

void vs_inner_activate(GstElement *e, gboolean active) {
  GstPad *pad = vs_inner_pad(e);
  if (pad != NULL)
    gst_pad_set_active(pad, active);
}

GstFlowReturn vs_inner_push(GstElement *e, GstBuffer *buf) {
  GstPad *pad = vs_inner_pad(e);
  if (pad == NULL) {
    gst_buffer_unref(buf);
    return GST_FLOW_OK;
  }
  return gst_pad_push(pad, buf);
}

gboolean vs_inner_push_event(GstElement *e, GstEvent *event) {
  GstPad *pad = vs_inner_pad(e);
  if (pad == NULL) {
    gst_event_unref(event);
    return TRUE;
  }
  return gst_pad_push_event(pad, event);
}

/* The top-level bin above e, and its child that holds e, both reffed. */
static GstBin *top_bin(GstElement *e, GstObject **child) {
  GstObject *cur = gst_object_ref(GST_OBJECT(e));
  GstObject *parent;
  while ((parent = gst_object_get_parent(cur)) != NULL) {
    GstObject *grand = gst_object_get_parent(parent);
    if (grand == NULL) {
      *child = cur;
      return GST_BIN(parent);
    }
    gst_object_unref(grand);
    gst_object_unref(cur);
    cur = parent;
  }
  gst_object_unref(cur);
  return NULL;
}

/* Whether the top-level bin is PLAYING and still holds the EOS its child
 * (e or e's bin) posted, that is, has not forwarded it. */
static gboolean eos_held(GstBin *top, GstObject *child) {
  gboolean held = FALSE;
  GST_OBJECT_LOCK(top);
  if (GST_STATE(top) == GST_STATE_PLAYING && GST_STATE_PENDING(top) == GST_STATE_VOID_PENDING) {
    for (GList *l = top->messages; l != NULL; l = l->next) {
      GstMessage *m = GST_MESSAGE(l->data);
      if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_EOS && GST_MESSAGE_SRC(m) == child)
        held = TRUE;
    }
  }
  GST_OBJECT_UNLOCK(top);
  return held;
}

void vs_inner_push_eos(GstElement *e, guint32 seqnum) {
  /* The EOS message the inner sink posts carries the EOS event's seqnum,
   * which upstream took from the seek that started the stream: an
   * application tells the EOS of its seek from an earlier one by it. */
  GstEvent *eos = gst_event_new_eos();
  if (seqnum != GST_SEQNUM_INVALID)
    gst_event_set_seqnum(eos, seqnum);
  vs_inner_push_event(e, eos);
  /* GStreamer 1.22's bins forward their sinks' EOS only once they have
   * posted that they are PLAYING, and record that after the message is
   * out: an application that sets PLAYING as soon as it reads the
   * READY→PAUSED message (gst-launch-1.0 does) can be PLAYING before the
   * bin records the earlier change, and the bin then holds every EOS for
   * good. Short streams end in that state often on a loaded machine.
   * When the pipeline is PLAYING and still holds this EOS after 100 ms,
   * it is stuck so: posting its PLAYING state again makes it look at the
   * EOS, as its own next state change would. */
  GstObject *child = NULL;
  GstBin *top = top_bin(e, &child);
  if (top == NULL)
    return;
  gboolean held = FALSE;
  for (gint i = 0; i < 10 && (held = eos_held(top, child)); i++)
    g_usleep(10000);
  if (held) {
    GST_CAT_WARNING_OBJECT(vs_cat(e), e, "%s is PLAYING but did not forward EOS: posting its PLAYING state again",
        GST_OBJECT_NAME(top));
    gst_element_post_message(GST_ELEMENT(top),
        gst_message_new_state_changed(GST_OBJECT(top), GST_STATE_PLAYING, GST_STATE_PLAYING,
            GST_STATE_VOID_PENDING));
  }
  gst_object_unref(child);
  gst_object_unref(top);
}
