package control

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func (s *Server) addResources() {
	s.mcp.AddResource(&mcp.Resource{
		URI:         liveURI,
		Name:        "live_scores",
		Title:       "Live VMAF scores",
		Description: "The latest scored frame (frame, pts_ns, model, score, features). Subscribe for one notifications/resources/updated per scored frame, carrying the record in _meta.record and, after a lag, the number of notifications this client missed in _meta.dropped.",
		MIMEType:    "application/json",
	}, s.readLive)
	s.mcp.AddResource(&mcp.Resource{
		URI:         statusURI,
		Name:        "status",
		Title:       "VMAF measurement status",
		Description: "The same object as the vmaf_status tool. Subscribers are notified when the state, model, pause mode, pending commands, warnings, health verdict or open quality drop change.",
		MIMEType:    "application/json",
	}, s.readStatus)
	s.addAnalyticsResources()
}

func (s *Server) readLive(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	var rec *Record
	if r := s.latest.Load(); r != nil {
		rec = r
	} else if sc := s.target.Scores(1, 0); len(sc.Records) > 0 {
		r := sanitize(sc.Records[len(sc.Records)-1])
		rec = &r
	}
	return jsonResource(req.Params.URI, rec)
}

func (s *Server) readStatus(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	st := sanitizeStatus(s.target.Status())
	st.Socket = s.path
	s.statusAnalytics(&st)
	return jsonResource(req.Params.URI, st)
}

func jsonResource(uri string, v any) (*mcp.ReadResourceResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", uri, err)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(b)}}}, nil
}
