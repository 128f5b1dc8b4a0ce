/* vmafsink's GstBaseSink properties: those of the inner fakesink, which
 * does what a sink does for the element (see innersink.c), installed on
 * the element and passed through to it, so that an application sets and
 * reads them as on any sink. vmafpass, whose reference goes out of its
 * src pad, has none. sync is a property of the element's own table. */
#include "gstglue.h"

/* Past the ids of the Go property table. */
enum { PROP_FIRST = 10000, PROP_QOS = PROP_FIRST, PROP_MAX_LATENESS, PROP_TS_OFFSET, PROP_ASYNC,
  PROP_ENABLE_LAST_SAMPLE, PROP_LAST_SAMPLE, PROP_LAST };

static void (*go_set_property)(GObject *, guint, const GValue *, GParamSpec *);
static void (*go_get_property)(GObject *, guint, GValue *, GParamSpec *);

static void set_property(GObject *obj, guint id, const GValue *value, GParamSpec *pspec) {
  if (id < PROP_FIRST || id >= PROP_LAST) {
    go_set_property(obj, id, value, pspec);
    return;
  }
  GstElement *sink = vs_inner_sink(GST_ELEMENT(obj));
  if (sink != NULL)
    g_object_set_property(G_OBJECT(sink), pspec->name, value);
}

static void get_property(GObject *obj, guint id, GValue *value, GParamSpec *pspec) {
  if (id < PROP_FIRST || id >= PROP_LAST) {
    go_get_property(obj, id, value, pspec);
    return;
  }
  GstElement *sink = vs_inner_sink(GST_ELEMENT(obj));
  if (sink != NULL)
    g_object_get_property(G_OBJECT(sink), pspec->name, value);
}

void vs_sink_properties_install(GObjectClass *klass) {
  if (go_set_property == NULL) {
    go_set_property = klass->set_property;
    go_get_property = klass->get_property;
  }
  klass->set_property = set_property;
  klass->get_property = get_property;
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;
  g_object_class_install_property(klass, PROP_QOS,
      g_param_spec_boolean("qos", "QoS", "Generate Quality-of-Service events upstream (the inner sink's)", FALSE, rw));
  g_object_class_install_property(klass, PROP_MAX_LATENESS,
      g_param_spec_int64("max-lateness", "Max lateness",
          "Maximum number of nanoseconds that a buffer can be late before it is dropped (-1 unlimited); with sync=true",
          -1, G_MAXINT64, -1, rw));
  g_object_class_install_property(klass, PROP_TS_OFFSET,
      g_param_spec_int64("ts-offset", "TS Offset", "Timestamp offset in nanoseconds, with sync=true",
          G_MININT64, G_MAXINT64, 0, rw));
  g_object_class_install_property(klass, PROP_ASYNC,
      g_param_spec_boolean("async", "Async", "Go asynchronously to PAUSED (preroll on the reference stream)", TRUE, rw));
  g_object_class_install_property(klass, PROP_ENABLE_LAST_SAMPLE,
      g_param_spec_boolean("enable-last-sample", "Enable Last Buffer",
          "Keep the last reference frame that reached the sink in last-sample (off: no frame held)", FALSE, rw));
  g_object_class_install_property(klass, PROP_LAST_SAMPLE,
      g_param_spec_boxed("last-sample", "Last Sample",
          "The last reference frame that reached the sink, with enable-last-sample", GST_TYPE_SAMPLE,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}
