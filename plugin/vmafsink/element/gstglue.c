#include "gstglue.h"
#include "_cgo_export.h"

/* One debug category per element: vmafsink's and vmafpass's. */
GST_DEBUG_CATEGORY(vs_debug_sink);
GST_DEBUG_CATEGORY(vs_debug_pass);
static GType pass_type;

GstDebugCategory *vs_cat(gpointer element) {
  if (pass_type != 0 && element != NULL && G_TYPE_CHECK_INSTANCE_TYPE(element, pass_type))
    return vs_debug_pass;
  return vs_debug_sink;
}

#define GST_CAT_DEFAULT vs_debug_sink

void vs_debug_set_threshold(gboolean pass, gint level) {
  GstDebugCategory *cat = pass ? vs_debug_pass : vs_debug_sink;
  if (cat)
    gst_debug_category_set_threshold(cat, (GstDebugLevel)level);
}

/* Marks an installed property with the GstParamFlags that say when it
 * takes effect. */
void vs_param_add_flags(GObjectClass *klass, const char *name, guint flags) {
  GParamSpec *spec = g_object_class_find_property(klass, name);
  if (spec != NULL)
    spec->flags |= flags;
}

gint vs_debug_threshold(gboolean pass) {
  GstDebugCategory *cat = pass ? vs_debug_pass : vs_debug_sink;
  return cat ? (gint)gst_debug_category_get_threshold(cat) : 0;
}

void vs_log(gboolean pass, GObject *obj, gint level, const char *file, const char *func, gint line, const char *msg) {
  GstDebugCategory *cat = pass ? vs_debug_pass : vs_debug_sink;
  if (cat)
    gst_debug_log(cat, (GstDebugLevel)level, file, func, line, obj, "%s", msg);
}

#define VS_FORMATS "{ I420, Y42B, Y444, GRAY8, I420_10LE, I422_10LE, Y444_10LE, I420_12LE, I422_12LE, Y444_12LE, YV12, NV12, NV21, P010_10LE, P012_LE }"

static GstStaticPadTemplate ref_template = GST_STATIC_PAD_TEMPLATE("ref_sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(GST_VIDEO_CAPS_MAKE(VS_FORMATS)));
static GstStaticPadTemplate dist_template = GST_STATIC_PAD_TEMPLATE("dist_sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(GST_VIDEO_CAPS_MAKE(VS_FORMATS)));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(GST_VIDEO_CAPS_MAKE(VS_FORMATS)));

GstPadTemplate *vs_src_template(void) { return gst_static_pad_template_get(&src_template); }

/* An upstream event, a seek above all, goes up both branches, so that
 * both streams flush and restart together. */
/* Events sent to the element go to the inner sink (as GstBin's default
 * sends them to its sinks), which handles what a sink handles (latency,
 * step) and sends the rest upstream through the inner pad, and so up both
 * branches. Queries are GstBin's, answered by the inner sink, except
 * latency, which both branches decide. */
static gboolean (*bin_query)(GstElement *element, GstQuery *query);

static gboolean vs_element_query(GstElement *element, GstQuery *query) {
  if (GST_QUERY_TYPE(query) == GST_QUERY_LATENCY)
    return vs_combined_latency(element, query);
  return bin_query(element, query);
}

gboolean vs_send_upstream(GstElement *element, GstEvent *event) {
  if (!GST_EVENT_IS_UPSTREAM(event)) {
    gst_event_unref(event);
    return FALSE;
  }
  GstPad *pads[2] = {NULL, NULL};
  gint n = 0;
  /* In no-reference mode only the distorted stream runs; ref_sink is
   * unlinked and has no upstream to tell. */
  gboolean dist_only = vs_lead_side(element) == VS_DIST;
  GST_OBJECT_LOCK(element);
  for (GList *l = element->sinkpads; l != NULL && n < 2; l = l->next) {
    if (dist_only && vs_pad_side(GST_PAD(l->data)) != VS_DIST)
      continue;
    pads[n++] = gst_object_ref(GST_PAD(l->data));
  }
  GST_OBJECT_UNLOCK(element);
  gboolean ok = n > 0;
  for (gint i = 0; i < n; i++) {
    if (!gst_pad_push_event(pads[i], gst_event_ref(event)))
      ok = FALSE;
    gst_object_unref(pads[i]);
  }
  gst_event_unref(event);
  return ok;
}

void vs_class_init(GstElementClass *klass, gboolean pass) {
  if (vs_debug_sink == NULL)
    GST_DEBUG_CATEGORY_INIT(vs_debug_sink, "vmafsink", 0, "vmafsink VMAF quality sink");
  if (vs_debug_pass == NULL)
    GST_DEBUG_CATEGORY_INIT(vs_debug_pass, "vmafpass", 0, "vmafpass VMAF quality pass-through");
  if (pass) {
    pass_type = G_TYPE_FROM_CLASS(klass);
    gst_element_class_set_static_metadata(klass,
        "VMAF video quality scorer",
        "Filter/Analyzer/Video",
        "Scores a distorted video stream against its reference with VMAF "
        "(libvmaf 3.2.0's numbers) while the pipeline runs, posts every "
        "frame's score on the bus and passes the reference stream on",
        "vmafsink developers <https://github.com/vmafsink/vmafsink>");
    gst_element_class_add_static_pad_template(klass, &src_template);
  } else {
    gst_element_class_set_static_metadata(klass,
        "VMAF video quality sink",
        "Sink/Analyzer/Video",
        "Scores a distorted video stream against its reference with VMAF "
        "(libvmaf 3.2.0's numbers) while the pipeline runs, and posts every "
        "frame's score on the bus",
        "vmafsink developers <https://github.com/vmafsink/vmafsink>");
  }
  gst_element_class_add_static_pad_template(klass, &ref_template);
  gst_element_class_add_static_pad_template(klass, &dist_template);
  bin_query = GST_ELEMENT_CLASS(g_type_class_peek_parent(klass))->query;
  klass->query = vs_element_query;
  if (!pass)
    vs_step_class_init(klass);
}

gint vs_pad_side(GstPad *pad) {
  return GPOINTER_TO_INT(gst_pad_get_element_private(pad)) - 1;
}

static GstFlowReturn vs_chain(GstPad *pad, GstObject *parent, GstBuffer *buf) {
  gint side = vs_pad_side(pad);
  GstFlowReturn ret = (GstFlowReturn)vmafsinkChain(parent, side, buf);
  /* Mapped frames hold their own reference. The reference stream goes on
   * to the inner sink, whose preroll and clock hold its thread. */
  if (side != vs_lead_side(GST_ELEMENT(parent)) || ret != GST_FLOW_OK) {
    gst_buffer_unref(buf);
    return ret;
  }
  return vs_inner_push(GST_ELEMENT(parent), buf);
}

GstEventType vs_event_type(GstEvent *event) { return GST_EVENT_TYPE(event); }

GstCaps *vs_event_caps(GstEvent *event) {
  GstCaps *caps = NULL;
  gst_event_parse_caps(event, &caps);
  return caps;
}

/* What a tag event says of the encode: its encoder and video-codec tags,
 * newly allocated (g_free) or NULL, and whether the list is the whole
 * stream's (a container's, where the encoder tag names the muxer) or the
 * stream's own. */
void vs_event_codec_tags(GstEvent *event, gchar **encoder, gchar **codec, gboolean *global) {
  GstTagList *list = NULL;
  *encoder = *codec = NULL;
  *global = FALSE;
  gst_event_parse_tag(event, &list);
  if (list == NULL)
    return;
  *global = gst_tag_list_get_scope(list) == GST_TAG_SCOPE_GLOBAL;
  if (!gst_tag_list_get_string(list, GST_TAG_ENCODER, encoder))
    *encoder = NULL;
  if (!gst_tag_list_get_string(list, GST_TAG_VIDEO_CODEC, codec))
    *codec = NULL;
}

/* The stream-id a stream-start event names (the event's), or NULL. */
const gchar *vs_event_stream_id(GstEvent *event) {
  const gchar *id = NULL;
  gst_event_parse_stream_start(event, &id);
  return id;
}

static GstPad *make_pad(GstElement *element, GstStaticPadTemplate *tmpl, gint side) {
  GstPad *pad = gst_pad_new_from_static_template(tmpl, tmpl->name_template);
  gst_pad_set_element_private(pad, GINT_TO_POINTER(side + 1));
  gst_pad_set_chain_function(pad, vs_chain);
  vs_pad_set_functions(pad);
  gst_element_add_pad(element, pad);
  return pad;
}

void vs_add_pads(GstElement *element, GstPad **ref, GstPad **dist) {
  *ref = make_pad(element, &ref_template, VS_REF);
  *dist = make_pad(element, &dist_template, VS_DIST);
}

/* Enums. TestEnumsMatchGo (enums.go) holds their values to the Go constants. */
#define VS_ENUM(fn, tname, ...)                                         \
  GType fn(void) {                                                      \
    static gsize id = 0;                                                \
    static const GEnumValue values[] = {__VA_ARGS__, {0, NULL, NULL}};  \
    if (g_once_init_enter(&id))                                         \
      g_once_init_leave(&id, g_enum_register_static(tname, values));    \
    return (GType)id;                                                   \
  }

VS_ENUM(vs_pool_method_get_type, "GstVmafSinkPoolMethod",
    {0, "Arithmetic mean", "mean"},
    {1, "Harmonic mean (libvmaf: n / sum(1/(x+1)) - 1)", "harmonic_mean"},
    {2, "Minimum", "min"},
    {3, "Maximum", "max"})
VS_ENUM(vs_results_format_get_type, "GstVmafSinkResultsFormat",
    {0, "libvmaf XML", "xml"},
    {1, "libvmaf JSON", "json"},
    {2, "libvmaf CSV", "csv"},
    {VS_RESULTS_NONE, "No results file, whatever results-filename says", "none"})
VS_ENUM(vs_engine_get_type, "GstVmafSinkEngine",
    {0, "Native; libvmaf (when built in) for models only it can compute", "auto"},
    {1, "Native Go feature extractors", "native"},
    {2, "libvmaf (builds with the libvmaf option only)", "libvmaf"})
VS_ENUM(vs_pairing_get_type, "GstVmafSinkPairing",
    {0, "Same running time, within half a frame duration", "timestamp"},
    {1, "Arrival order (lockstep)", "order"})
VS_ENUM(vs_backpressure_get_type, "GstVmafSinkBackpressure",
    {0, "Block upstream until the scorer has room", "block"},
    {1, "Drop the pair and count it", "drop"})
VS_ENUM(vs_log_level_get_type, "GstVmafSinkLogLevel",
    {0, "No logging", "none"},
    {1, "Errors", "error"},
    {2, "Warnings", "warning"},
    {3, "Fixme messages", "fixme"},
    {4, "Information", "info"},
    {5, "Debugging", "debug"},
    {6, "Every buffer", "log"},
    {7, "Tracing", "trace"},
    {9, "Memory dumps", "memdump"})
VS_ENUM(vs_pause_mode_get_type, "GstVmafSinkPauseMode",
    {0, "Keep frames flowing, count them as skipped", "skip"},
    {1, "Hold the streaming threads until resume", "block"})

GParamSpec *vs_enum_param(const char *name, const char *nick, const char *blurb, GType type, gint def, GParamFlags flags) {
  return g_param_spec_enum(name, nick, blurb, type, def, flags);
}

gint vs_value_get_enum(const GValue *v) { return g_value_get_enum(v); }

/* A fraction property from 0/1 (unset) up, unset by default. */
GParamSpec *vs_fraction_param(const char *name, const char *nick, const char *blurb, GParamFlags flags) {
  return gst_param_spec_fraction(name, nick, blurb, 0, 1, G_MAXINT, 1, 0, 1, flags);
}

gboolean vs_value_get_fraction(const GValue *v, gint *num, gint *den) {
  if (!GST_VALUE_HOLDS_FRACTION(v)) return FALSE;
  *num = gst_value_get_fraction_numerator(v);
  *den = gst_value_get_fraction_denominator(v);
  return TRUE;
}

GValue *vs_value_new_fraction(gint num, gint den) {
  GValue *val = g_new0(GValue, 1);
  g_value_init(val, GST_TYPE_FRACTION);
  gst_value_set_fraction(val, num, den);
  return val;
}

GValue *vs_value_new_enum(GType type, gint v) {
  GValue *val = g_new0(GValue, 1);
  g_value_init(val, type);
  g_value_set_enum(val, v);
  return val;
}

gboolean vs_info_from_caps(GstCaps *caps, GstVideoInfo *info) {
  gst_video_info_init(info);
  return gst_video_info_from_caps(info, caps);
}

gboolean vs_frame_map(GstVideoFrame *frame, const GstVideoInfo *info, GstBuffer *buf) {
  return gst_video_frame_map(frame, (GstVideoInfo *)info, buf, GST_MAP_READ);
}

void vs_frame_unmap(GstVideoFrame *frame) { gst_video_frame_unmap(frame); }

guint8 *vs_frame_plane(GstVideoFrame *frame, guint i, gint *stride) {
  if (i >= GST_VIDEO_FRAME_N_PLANES(frame)) {
    *stride = 0;
    return NULL;
  }
  *stride = GST_VIDEO_FRAME_PLANE_STRIDE(frame, i);
  return GST_VIDEO_FRAME_PLANE_DATA(frame, i);
}

gint vs_info_format(const GstVideoInfo *info) { return GST_VIDEO_INFO_FORMAT(info); }
gint vs_info_width(const GstVideoInfo *info) { return GST_VIDEO_INFO_WIDTH(info); }
gint vs_info_height(const GstVideoInfo *info) { return GST_VIDEO_INFO_HEIGHT(info); }
gint vs_info_fps(const GstVideoInfo *info, gint *den) {
  *den = GST_VIDEO_INFO_FPS_D(info);
  return GST_VIDEO_INFO_FPS_N(info);
}

GstClockTime vs_buffer_pts(GstBuffer *buf) { return GST_BUFFER_PTS(buf); }

GstBufferPool *vs_buffer_pool(GstBuffer *buf) { return buf->pool; }

/* The pool's maximum number of buffers; 0 for an unbounded pool. */
guint vs_pool_max_buffers(GstBufferPool *pool) {
  guint max = 0;
  GstStructure *config = gst_buffer_pool_get_config(pool);
  if (config) {
    gst_buffer_pool_config_get_params(config, NULL, NULL, NULL, &max);
    gst_structure_free(config);
  }
  return max;
}
GstClockTime vs_buffer_duration(GstBuffer *buf) { return GST_BUFFER_DURATION(buf); }

guint64 vs_running_time(const GstSegment *seg, GstClockTime t) {
  if (!GST_CLOCK_TIME_IS_VALID(t) || seg->format != GST_FORMAT_TIME)
    return GST_CLOCK_TIME_NONE;
  return gst_segment_to_running_time(seg, GST_FORMAT_TIME, t);
}

guint64 vs_stream_time(const GstSegment *seg, GstClockTime t) {
  if (!GST_CLOCK_TIME_IS_VALID(t) || seg->format != GST_FORMAT_TIME)
    return GST_CLOCK_TIME_NONE;
  return gst_segment_to_stream_time(seg, GST_FORMAT_TIME, t);
}

void vs_post_error(GstElement *e, gint kind, const char *text, const char *debug, const char *file, const char *func, gint line) {
  GQuark domain = GST_STREAM_ERROR;
  gint code = GST_STREAM_ERROR_FAILED;
  switch (kind) {
  case VS_ERR_FORMAT:
    code = GST_STREAM_ERROR_FORMAT;
    break;
  case VS_ERR_SETTINGS:
    domain = GST_LIBRARY_ERROR;
    code = GST_LIBRARY_ERROR_SETTINGS;
    break;
  case VS_ERR_WRITE:
    domain = GST_RESOURCE_ERROR;
    code = GST_RESOURCE_ERROR_WRITE;
    break;
  }
  gst_element_message_full(e, GST_MESSAGE_ERROR, domain, code,
      g_strdup(text), g_strdup(debug), file, func, line);
}

void vs_post_warning(GstElement *e, const char *text, const char *debug, const char *file, const char *func, gint line) {
  gst_element_message_full(e, GST_MESSAGE_WARNING, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
      g_strdup(text), g_strdup(debug), file, func, line);
}

GstStructure *vs_structure_new(const char *name, const char *type) {
  return gst_structure_new(name, "type", G_TYPE_STRING, type, NULL);
}

void vs_structure_set_double(GstStructure *s, const char *field, gdouble v) {
  gst_structure_set(s, field, G_TYPE_DOUBLE, v, NULL);
}

void vs_structure_set_int(GstStructure *s, const char *field, gint v) {
  gst_structure_set(s, field, G_TYPE_INT, v, NULL);
}

void vs_notify(GstElement *e, const char *property) {
  g_object_notify(G_OBJECT(e), property);
}

void vs_structure_set_uint64(GstStructure *s, const char *field, guint64 v) {
  gst_structure_set(s, field, G_TYPE_UINT64, v, NULL);
}

void vs_structure_set_string(GstStructure *s, const char *field, const char *v) {
  gst_structure_set(s, field, G_TYPE_STRING, v, NULL);
}

void vs_structure_set_boolean(GstStructure *s, const char *field, gboolean v) {
  gst_structure_set(s, field, G_TYPE_BOOLEAN, v, NULL);
}

void vs_structure_set_doubles(GstStructure *s, gint n, const char *const *fields, const gdouble *values) {
  for (gint i = 0; i < n; i++)
    gst_structure_set(s, fields[i], G_TYPE_DOUBLE, values[i], NULL);
}

void vs_post_element_message(GstElement *e, GstStructure *s) {
  gst_element_post_message(e, gst_message_new_element(GST_OBJECT(e), s));
}

gboolean vs_upstream_live(GstElement *e, gint side, GstClockTime *min_latency) {
  GstPad *pad = gst_element_get_static_pad(e, side == 0 ? "ref_sink" : "dist_sink");
  gboolean live = FALSE;
  *min_latency = 0;
  if (pad == NULL)
    return FALSE;
  GstQuery *q = gst_query_new_latency();
  if (gst_pad_peer_query(pad, q))
    gst_query_parse_latency(q, &live, min_latency, NULL);
  gst_query_unref(q);
  gst_object_unref(pad);
  return live;
}

gint64 vs_clock_lag(GstElement *e, GstClockTime running_time) {
  if (!GST_CLOCK_TIME_IS_VALID(running_time))
    return G_MININT64;
  GstClock *clock = gst_element_get_clock(e);
  if (clock == NULL)
    return G_MININT64;
  GstClockTime now = gst_clock_get_time(clock);
  gst_object_unref(clock);
  GstClockTime base = gst_element_get_base_time(e);
  if (now < base)
    return G_MININT64;
  return (gint64)(now - base) - (gint64)running_time;
}

void vs_post_qos(GstElement *e, gboolean live, GstClockTime running_time, GstClockTime stream_time, GstClockTime pts,
    GstClockTime duration, gint64 jitter, guint64 processed, guint64 dropped) {
  GstMessage *m = gst_message_new_qos(GST_OBJECT(e), live, running_time, stream_time, pts, duration);
  /* quality: the share of pairs scored, in GStreamer's 0 to 1000000. */
  gint quality = processed + dropped == 0 ? 1000000 : (gint)(1000000.0 * processed / (processed + dropped));
  gst_message_set_qos_values(m, jitter, 1.0, quality);
  gst_message_set_qos_stats(m, GST_FORMAT_BUFFERS, processed, dropped);
  gst_element_post_message(e, m);
}

gboolean vs_pad_linked(GstElement *e, gint side) {
  GstPad *pad = gst_element_get_static_pad(e, side == 0 ? "ref_sink" : "dist_sink");
  if (pad == NULL)
    return FALSE;
  gboolean linked = gst_pad_is_linked(pad);
  gst_object_unref(pad);
  return linked;
}
