/* C side of the vmafsink element: the parts that go-gst does not bind
 * (pad functions without Go wrappers, video frame mapping, enum
 * properties, element messages). */
#ifndef VMAFSINK_GSTGLUE_H
#define VMAFSINK_GSTGLUE_H

#include <gst/gst.h>
#include <gst/video/video.h>

/* Sides, as pipeline.Side numbers them. */
#define VS_REF 0
#define VS_DIST 1

void vs_class_init(GstElementClass *klass, gboolean pass);
/* vmafsink's GstBaseSink properties, passed to the inner fakesink
 * (sinkprops.c); after go-glib has set the class's property functions. */
void vs_sink_properties_install(GObjectClass *klass);
GstPadTemplate *vs_src_template(void);

/* The debug categories, vmafsink's and vmafpass's (pass): a threshold (0
 * before class init) and one line at a GstDebugLevel with obj (an element
 * or one of its pads) as object. vs_cat is the category of an element. */
GstDebugCategory *vs_cat(gpointer element);
gint vs_debug_threshold(gboolean pass);
void vs_debug_set_threshold(gboolean pass, gint level);
void vs_param_add_flags(GObjectClass *klass, const char *name, guint flags);
void vs_log(gboolean pass, GObject *obj, gint level, const char *file, const char *func, gint line, const char *msg);
/* Adds ref_sink and dist_sink, and gives them (not reffed: the element
 * holds them for its life). */
void vs_add_pads(GstElement *element, GstPad **ref, GstPad **dist);
/* The side (VS_REF, VS_DIST) of one of the element's sink pads. */
gint vs_pad_side(GstPad *pad);
/* The sink pads' event, query and internal-link functions (padio.c). */
void vs_pad_set_functions(GstPad *pad);

/* Enum GTypes of the element's enum properties. */
GType vs_pool_method_get_type(void);
GType vs_results_format_get_type(void);
/* results-format=none, past report.Format's values. */
#define VS_RESULTS_NONE 100
GType vs_engine_get_type(void);
GType vs_pairing_get_type(void);
GType vs_backpressure_get_type(void);
GType vs_pause_mode_get_type(void);
GType vs_log_level_get_type(void);
GParamSpec *vs_enum_param(const char *name, const char *nick, const char *blurb, GType type, gint def, GParamFlags flags);
gint vs_value_get_enum(const GValue *v);
GParamSpec *vs_fraction_param(const char *name, const char *nick, const char *blurb, GParamFlags flags);
gboolean vs_value_get_fraction(const GValue *v, gint *num, gint *den);
GValue *vs_value_new_fraction(gint num, gint den);
GValue *vs_value_new_enum(GType type, gint v);

/* Video mapping. */
gboolean vs_info_from_caps(GstCaps *caps, GstVideoInfo *info);
gboolean vs_frame_map(GstVideoFrame *frame, const GstVideoInfo *info, GstBuffer *buf);
void vs_frame_unmap(GstVideoFrame *frame);
guint8 *vs_frame_plane(GstVideoFrame *frame, guint i, gint *stride);
gint vs_info_format(const GstVideoInfo *info);
gint vs_info_width(const GstVideoInfo *info);
gint vs_info_height(const GstVideoInfo *info);
gint vs_info_fps(const GstVideoInfo *info, gint *den);

/* Events, buffers and segments. */
GstEventType vs_event_type(GstEvent *event);
GstCaps *vs_event_caps(GstEvent *event);
void vs_event_codec_tags(GstEvent *event, gchar **encoder, gchar **codec, gboolean *global);
const gchar *vs_event_stream_id(GstEvent *event);
GstClockTime vs_buffer_pts(GstBuffer *buf);
GstBufferPool *vs_buffer_pool(GstBuffer *buf);
guint vs_pool_max_buffers(GstBufferPool *pool);
GstClockTime vs_buffer_duration(GstBuffer *buf);
guint64 vs_running_time(const GstSegment *seg, GstClockTime t);
guint64 vs_stream_time(const GstSegment *seg, GstClockTime t);

/* Messages. */
/* Error kinds, as the Go side names them. */
enum { VS_ERR_FORMAT, VS_ERR_FAILED, VS_ERR_SETTINGS, VS_ERR_WRITE };
/* Both with the Go source location that posts them. */
void vs_post_error(GstElement *e, gint kind, const char *text, const char *debug, const char *file, const char *func, gint line);
void vs_post_warning(GstElement *e, const char *text, const char *debug, const char *file, const char *func, gint line);
/* Whether the pad of that side (0: ref_sink) has a live source upstream,
 * and the branch's minimum latency. */
gboolean vs_upstream_live(GstElement *e, gint side, GstClockTime *min_latency);
/* How far the pipeline clock's running time is past running_time, in ns;
 * G_MININT64 without a clock or a valid time. */
gint64 vs_clock_lag(GstElement *e, GstClockTime running_time);
/* A QoS message: scoring behind a live stream, or a pair dropped. */
void vs_post_qos(GstElement *e, gboolean live, GstClockTime running_time, GstClockTime stream_time, GstClockTime pts,
    GstClockTime duration, gint64 jitter, guint64 processed, guint64 dropped);
/* Whether the sink pad of that side has a peer. */
gboolean vs_pad_linked(GstElement *e, gint side);
GstStructure *vs_structure_new(const char *name, const char *type);
void vs_structure_set_double(GstStructure *s, const char *field, gdouble v);
void vs_structure_set_int(GstStructure *s, const char *field, gint v);
void vs_notify(GstElement *e, const char *property);
void vs_structure_set_uint64(GstStructure *s, const char *field, guint64 v);
void vs_structure_set_string(GstStructure *s, const char *field, const char *v);
void vs_structure_set_boolean(GstStructure *s, const char *field, gboolean v);
void vs_structure_set_doubles(GstStructure *s, gint n, const char *const *fields, const gdouble *values);
void vs_post_element_message(GstElement *e, GstStructure *s);

/* The inner fakesink that gives the element a sink's states (innersink.c). */
gboolean vs_inner_sink_add(GstElement *e);
/* vmafpass: the inner pad is the element's src pad, with no fakesink. */
void vs_inner_src_add(GstElement *e);
/* The inner pad: the fakesink's peer, or vmafpass's src pad (not reffed). */
GstPad *vs_inner_pad(GstElement *e);
/* The inner fakesink (not reffed), NULL for vmafpass. */
GstElement *vs_inner_sink(GstElement *e);
void vs_inner_sink_set_sync(GstElement *e, gboolean sync);
/* Whether the inner fakesink is PLAYING (TRUE for vmafpass, which has
 * none). A flushing seek in PLAYING makes it lose its state and preroll
 * again while the element itself stays PLAYING. */
gboolean vs_inner_sink_playing(GstElement *e);
void vs_inner_activate(GstElement *e, gboolean active);
void vs_set_lead_side(GstElement *e, gint side);
gint vs_lead_side(GstElement *e);
GstFlowReturn vs_inner_push(GstElement *e, GstBuffer *buf);
gboolean vs_inner_push_event(GstElement *e, GstEvent *event);
void vs_inner_push_eos(GstElement *e, guint32 seqnum);
/* Step events (step.c): vmafsink takes the inner sink's STEP_DONE and
 * posts it as its own with vs_post_step_done, which takes the message. */
void vs_step_class_init(GstElementClass *klass);
void vs_post_step_done(GstElement *e, GstMessage *done);
void vs_message_unref(GstMessage *m);
GstFormat vs_step_done_format(GstMessage *done);
/* Hands a child's message to GstBin's own handling. */
void vs_bin_message(GstElement *e, GstMessage *message);
/* The latency of the two branches together: live when either is, the
 * larger minimum, the smaller maximum. */
gboolean vs_combined_latency(GstElement *e, GstQuery *query);
/* Sends an upstream event up both branches; takes the event. */
gboolean vs_send_upstream(GstElement *e, GstEvent *event);

#endif
