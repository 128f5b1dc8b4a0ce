/* The sink pads' events and queries, and vmafpass's proxying between
 * ref_sink and src. vmafpass is a pass-through with a side input: the
 * reference stream, its events and its negotiation go through as they
 * would through identity, and the distorted stream ends at the element.
 * Caps queries answer with the template, preferring the other sink pad's
 * format and size, so that a branch free to choose converges on the
 * other's (as an aggregator's pads do); a branch that cannot still
 * negotiates, and the element then reports the mismatch itself. */
#include "gstglue.h"
#include "_cgo_export.h"


static const gchar *const side_names[2] = {"ref_sink", "dist_sink"};

/* vmafpass's src pad, reffed; NULL for vmafsink. */
static GstPad *src_pad(GstElement *e) { return gst_element_get_static_pad(e, "src"); }

/* The inner pad's push failed: a flushing pad says FLUSHING upstream,
 * which a seek racing the reference's sticky events makes common, and is
 * no error. */
static GstFlowReturn refused(GstElement *e, GstEventType type) {
  GstPad *inner = vs_inner_pad(e);
  if (inner != NULL && GST_PAD_IS_FLUSHING(inner))
    return GST_FLOW_FLUSHING;
  return type == GST_EVENT_CAPS ? GST_FLOW_NOT_NEGOTIATED : GST_FLOW_ERROR;
}

static GstFlowReturn vs_event(GstPad *pad, GstObject *parent, GstEvent *event) {
  gint side = vs_pad_side(pad);
  GstElement *e = GST_ELEMENT(parent);
  GstEventType type = GST_EVENT_TYPE(event);
  switch (type) {
  case GST_EVENT_CAPS:
  case GST_EVENT_SEGMENT:
  case GST_EVENT_FLUSH_START:
  case GST_EVENT_FLUSH_STOP:
  case GST_EVENT_EOS:
  case GST_EVENT_TAG:
  case GST_EVENT_STREAM_START:
    if (!vmafsinkEvent(parent, side, event)) {
      gst_event_unref(event);
      return type == GST_EVENT_CAPS ? GST_FLOW_NOT_NEGOTIATED : GST_FLOW_ERROR;
    }
    break;
  default:
    break;
  }
  /* The inner sink gets its EOS once both streams have ended; the other
   * stream's events (the distorted one's, or in no-reference mode the
   * reference's) end here. */
  gint lead = vs_lead_side(e);
  if (side != lead || type == GST_EVENT_EOS || !GST_EVENT_IS_DOWNSTREAM(event)) {
    if (side != lead)
      GST_CAT_LOG_OBJECT(vs_cat(e), pad, "%s event kept from src", GST_EVENT_TYPE_NAME(event));
    gst_event_unref(event);
    return GST_FLOW_OK;
  }
  if (vs_inner_push_event(e, event))
    return GST_FLOW_OK;
  GstFlowReturn ret = refused(e, type);
  GST_CAT_DEBUG_OBJECT(vs_cat(e), pad, "%s event refused downstream: %s", gst_event_type_get_name(type), gst_flow_get_name(ret));
  return ret;
}

/* format, width and height of each structure of caps, nothing else:
 * what the two pads must agree on. NULL for ANY. */
static GstCaps *shape(GstCaps *caps) {
  if (caps == NULL || gst_caps_is_any(caps))
    return NULL;
  static const gchar *const fields[] = {"format", "width", "height"};
  GstCaps *out = gst_caps_new_empty();
  for (guint i = 0; i < gst_caps_get_size(caps); i++) {
    GstStructure *s = gst_caps_get_structure(caps, i);
    GstStructure *n = gst_structure_new_empty(gst_structure_get_name(s));
    for (guint f = 0; f < G_N_ELEMENTS(fields); f++) {
      const GValue *v = gst_structure_get_value(s, fields[f]);
      if (v != NULL)
        gst_structure_set_value(n, fields[f], v);
    }
    out = gst_caps_merge_structure(out, n);
  }
  return out;
}

/* Set while a caps query asks the other pad's upstream, so that a
 * topology that leads back here (the other pad's upstream asking this
 * pad) ends there. */
static GPrivate asking_other;

/* What the other sink pad's stream is or can be: its negotiated format
 * and size while its upstream can still give them, else what its
 * upstream can give. NULL when unknown or unconstrained. */
static GstCaps *other_shape(GstElement *e, gint side) {
  if (g_private_get(&asking_other) != NULL)
    return NULL;
  GstPad *other = gst_element_get_static_pad(e, side_names[1 - side]);
  if (other == NULL)
    return NULL;
  GstCaps *tmpl = gst_pad_get_pad_template_caps(other);
  g_private_set(&asking_other, GINT_TO_POINTER(1));
  GstCaps *peer = gst_pad_peer_query_caps(other, tmpl);
  g_private_set(&asking_other, NULL);
  gst_caps_unref(tmpl);
  GstCaps *possible = shape(peer);
  gst_caps_unref(peer);
  GstCaps *cur = gst_pad_get_current_caps(other);
  gst_object_unref(other);
  GstCaps *now = shape(cur);
  if (cur != NULL)
    gst_caps_unref(cur);
  if (now != NULL && (possible == NULL || gst_caps_can_intersect(now, possible))) {
    if (possible != NULL)
      gst_caps_unref(possible);
    return now;
  }
  if (now != NULL)
    gst_caps_unref(now);
  return possible;
}

/* The caps a sink pad takes: the template (for vmafpass's ref_sink, what
 * src's peer takes too), the other pad's shape first. */
static GstCaps *sink_caps(GstPad *pad, GstElement *e, gint side, GstCaps *filter) {
  GstCaps *caps = gst_pad_get_pad_template_caps(pad);
  GstPad *src = side == VS_REF ? src_pad(e) : NULL;
  if (src != NULL) {
    GstCaps *down = gst_pad_peer_query_caps(src, caps);
    gst_caps_unref(caps);
    caps = down;
    gst_object_unref(src);
  }
  GstCaps *other = other_shape(e, side);
  if (other != NULL) {
    GstCaps *preferred = gst_caps_intersect_full(other, caps, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref(other);
    caps = gst_caps_merge(preferred, caps);
  }
  if (filter != NULL) {
    GstCaps *f = gst_caps_intersect_full(caps, filter, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref(caps);
    caps = f;
  }
  return caps;
}

static gboolean vs_query(GstPad *pad, GstObject *parent, GstQuery *query) {
  GstElement *e = GST_ELEMENT(parent);
  gint side = vs_pad_side(pad);
  GstPad *src = side == VS_REF ? src_pad(e) : NULL;
  gboolean ret;
  switch (GST_QUERY_TYPE(query)) {
  case GST_QUERY_CAPS: {
    GstCaps *filter;
    gst_query_parse_caps(query, &filter);
    GstCaps *caps = sink_caps(pad, e, side, filter);
    GST_CAT_LOG_OBJECT(vs_cat(e), pad, "caps query: %" GST_PTR_FORMAT, caps);
    gst_query_set_caps_result(query, caps);
    gst_caps_unref(caps);
    ret = TRUE;
    break;
  }
  case GST_QUERY_ACCEPT_CAPS: {
    /* The template decides, and for vmafpass's reference what src's peer
     * accepts: caps that differ from the other pad's are reported as such
     * when they arrive, rather than refused here without a reason. */
    GstCaps *caps;
    gst_query_parse_accept_caps(query, &caps);
    GstCaps *tmpl = gst_pad_get_pad_template_caps(pad);
    gboolean ok = gst_caps_is_subset(caps, tmpl);
    gst_caps_unref(tmpl);
    if (ok && src != NULL && gst_pad_is_linked(src))
      ok = gst_pad_peer_query_accept_caps(src, caps);
    gst_query_set_accept_caps_result(query, ok);
    ret = TRUE;
    break;
  }
  case GST_QUERY_ALLOCATION:
    if (src != NULL) {
      /* Buffers go on downstream: its pool and metas are what count. */
      ret = gst_pad_peer_query(src, query);
      GST_CAT_DEBUG_OBJECT(vs_cat(e), pad, "allocation query proxied downstream: %d", ret);
      break;
    }
    /* Frames are mapped with gst_video_frame_map, which honours
     * GstVideoMeta, so upstream may hand over padded or offset planes
     * instead of copying them into the default layout. */
    gst_query_add_allocation_meta(query, GST_VIDEO_META_API_TYPE, NULL);
    GST_CAT_DEBUG_OBJECT(vs_cat(e), pad, "allocation query: GstVideoMeta accepted, buffers are mapped in place");
    ret = TRUE;
    break;
  default:
    /* Drain and the rest: downstream of the reference, where there is
     * one; the distorted stream goes nowhere. */
    ret = src != NULL ? gst_pad_peer_query(src, query) : gst_pad_query_default(pad, parent, query);
    break;
  }
  if (src != NULL)
    gst_object_unref(src);
  return ret;
}

/* The pads the sink pads' events and queries go on to by default: none.
 * What goes on is decided above. */
static GstIterator *vs_internal_links(GstPad *pad, GstObject *parent) {
  (void)pad;
  (void)parent;
  return gst_iterator_new_single(GST_TYPE_PAD, NULL);
}

void vs_pad_set_functions(GstPad *pad) {
  gst_pad_set_event_full_function(pad, vs_event);
  gst_pad_set_query_function(pad, vs_query);
  gst_pad_set_iterate_internal_links_function(pad, vs_internal_links);
}
