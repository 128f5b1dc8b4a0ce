/* seekrun plays a pipeline, prints its VMAF element messages as
 * gst-launch -m does, and after a given number of frame messages seeks
 * the pipeline back to 0 with a flushing seek, once. gst-launch cannot
 * seek, and the Go plugin cannot be loaded into a Go test process (two Go
 * runtimes), so the end-to-end seek test drives the element from C.
 *
 * usage: seekrun FRAMES 'pipeline description'
 * exit status 0 at EOS, 1 on an error or a failed seek. */
#include <gst/gst.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  if (argc != 3) {
    fprintf(stderr, "usage: seekrun FRAMES DESCRIPTION\n");
    return 2;
  }
  int seek_after = atoi(argv[1]);
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch(argv[2], &err);
  if (pipeline == NULL) {
    fprintf(stderr, "ERROR: %s\n", err->message);
    return 1;
  }
  GstBus *bus = gst_element_get_bus(pipeline);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  int frames = 0, status = 1;
  gboolean sought = FALSE, done = FALSE;
  while (!done) {
    GstMessage *msg = gst_bus_timed_pop(bus, GST_CLOCK_TIME_NONE);
    switch (GST_MESSAGE_TYPE(msg)) {
    case GST_MESSAGE_ELEMENT: {
      const GstStructure *s = gst_message_get_structure(msg);
      if (s != NULL && gst_structure_has_name(s, "VMAF")) {
        gchar *str = gst_structure_to_string(s);
        printf("Got message from element \"%s\" (element): %s\n", GST_OBJECT_NAME(GST_MESSAGE_SRC(msg)), str);
        g_free(str);
        if (g_strcmp0(gst_structure_get_string(s, "type"), "frame") == 0 && ++frames == seek_after && !sought) {
          sought = TRUE;
          printf("SEEK after %d frames\n", frames);
          if (!gst_element_seek_simple(pipeline, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE, 0)) {
            fprintf(stderr, "ERROR: the seek failed\n");
            done = TRUE;
          }
        }
      }
      break;
    }
    case GST_MESSAGE_ERROR: {
      GError *e = NULL;
      gchar *debug = NULL;
      gst_message_parse_error(msg, &e, &debug);
      fprintf(stderr, "ERROR: from element %s: %s (%s)\n", GST_OBJECT_NAME(GST_MESSAGE_SRC(msg)), e->message, debug ? debug : "");
      g_clear_error(&e);
      g_free(debug);
      done = TRUE;
      break;
    }
    case GST_MESSAGE_EOS:
      status = sought ? 0 : 1;
      if (!sought)
        fprintf(stderr, "ERROR: EOS before the seek\n");
      done = TRUE;
      break;
    default:
      break;
    }
    gst_message_unref(msg);
  }
  fflush(stdout);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(bus);
  gst_object_unref(pipeline);
  return status;
}
