package web

import (
	"context"
	"encoding/json"
	"incidentlib/internal/catalog"
	"incidentlib/internal/model"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpConnect starts the real server and connects the SDK's client to its /mcp endpoint over
// Streamable HTTP. A non-empty host is sent as the Host header of every request, as a reverse
// proxy does.
func mcpConnect(t *testing.T, host string) *mcp.ClientSession {
	t.Helper()
	ts := httptest.NewServer(newTestServer(t))
	t.Cleanup(ts.Close)
	hc := ts.Client()
	if host != "" {
		hc.Transport = hostRewriter{host: host, next: hc.Transport}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		t.Fatalf("connect to %s/mcp: %v", ts.URL, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

type hostRewriter struct {
	host string
	next http.RoundTripper
}

func (h hostRewriter) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Host = h.host
	return h.next.RoundTrip(r)
}

// call calls a tool that must succeed, decodes its structured content into out and returns its
// text.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) string {
	t.Helper()
	res, text := callTool(t, cs, name, args)
	if res.IsError {
		t.Fatalf("%s(%v) failed: %s", name, args, text)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s(%v): structured content %s: %v", name, args, b, err)
	}
	return text
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): %v", name, args, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	return res, text.String()
}

func caseIDs(l model.ToolList) []string {
	var ids []string
	for _, c := range l.Cases {
		ids = append(ids, c.ID)
	}
	return ids
}

func hasTerm(ts []model.Term, kind catalog.Kind, slug string) bool {
	return slices.ContainsFunc(ts, func(t model.Term) bool { return t.Kind == kind && t.Slug == slug })
}

func TestMCPListsTools(t *testing.T) {
	cs := mcpConnect(t, "")
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if len(tool.Description) < 100 {
			t.Errorf("%s: description %q is too short to say when to use it", tool.Name, tool.Description)
		}
		schema, _ := tool.InputSchema.(map[string]any)
		props, _ := schema["properties"].(map[string]any)
		if len(props) == 0 {
			t.Errorf("%s: input schema %v has no properties", tool.Name, tool.InputSchema)
		}
		for name, p := range props {
			if p.(map[string]any)["description"] == nil {
				t.Errorf("%s: argument %s has no description", tool.Name, name)
			}
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s: no output schema", tool.Name)
		}
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("%s: not marked read-only", tool.Name)
		}
	}
	slices.Sort(names)
	want := []string{"find_similar_incidents", "get_checklist", "get_incident", "get_topic", "list_incidents", "search_incidents", "vocab"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
}

func TestMCPSearchIncidents(t *testing.T) {
	cs := mcpConnect(t, "")
	var l model.ToolList
	text := call(t, cs, "search_incidents", map[string]any{"query": "데이터센터 화재"}, &l)
	for _, id := range []string{"IL-0003", "IL-0004"} {
		if !slices.Contains(caseIDs(l), id) {
			t.Errorf("search 데이터센터 화재 = %v, want %s among them", caseIDs(l), id)
		}
		if !strings.Contains(text, id) {
			t.Errorf("search text does not name %s:\n%s", id, text)
		}
	}
	if !hasTerm(l.Suggestions, "cause", "power-facility") {
		t.Errorf("suggestions = %v, want cause power-facility", l.Suggestions)
	}
	if l.Lang != "en" || !strings.Contains(l.Cases[0].URL, "/en/cases/") || l.Cases[0].Summary == "" {
		t.Errorf("first card = %+v, want an English card with a link and a summary", l.Cases[0])
	}

	// Korean answer, narrowed by filters of two kinds.
	text = call(t, cs, "search_incidents", map[string]any{"query": "fire", "cause": []string{"power-facility"}, "org": []string{"kakao"}, "lang": "ko"}, &l)
	if diff := cmp.Diff([]string{"IL-0003"}, caseIDs(l)); diff != "" {
		t.Errorf("search fire, cause power-facility, org kakao (-want +got):\n%s", diff)
	}
	if !strings.Contains(text, "1건 중 1~1번째") || !strings.Contains(text, "카카오") {
		t.Errorf("Korean search text:\n%s", text)
	}

	// Paging: one case a page.
	text = call(t, cs, "search_incidents", map[string]any{"cause": []string{"power-facility"}, "page_size": 1, "page": 2}, &l)
	if diff := cmp.Diff([]string{"IL-0003"}, caseIDs(l)); diff != "" || l.Pages != 3 || l.Total != 3 {
		t.Errorf("page 2 of 3 = %v (pages %d, total %d), want [IL-0003] (-want +got):\n%s", caseIDs(l), l.Pages, l.Total, diff)
	}
	if !strings.Contains(text, "page 3") {
		t.Errorf("page 2 of 3 does not point to the next page:\n%s", text)
	}
}

func TestMCPGetIncident(t *testing.T) {
	cs := mcpConnect(t, "")
	var c model.Case
	text := call(t, cs, "get_incident", map[string]any{"id": "il-0003"}, &c)
	if c.ID != "IL-0003" || c.Org.Slug != "kakao" || !strings.Contains(c.Text["en"].Title, "Kakao") || !strings.Contains(c.Text["ko"].Title, "카카오") {
		t.Errorf("get_incident il-0003 = %s %v %q %q, want the Kakao case in both languages", c.ID, c.Org, c.Text["en"].Title, c.Text["ko"].Title)
	}
	if causes := c.Tags[catalog.KindCause]; !hasTerm(causes, "cause", "power-facility") || len(c.Sources) == 0 || c.Sources[0].URL == "" {
		t.Errorf("get_incident IL-0003: causes %v, sources %v", causes, c.Sources)
	}
	if len(c.Related) == 0 || len(c.Related[0].Reasons) == 0 || c.Related[0].Why == "" {
		t.Errorf("get_incident IL-0003: related %+v, want cases with reasons", c.Related)
	}
	for _, want := range []string{"# IL-0003", "## Sources", c.Sources[0].URL, "## Related cases", "same kind of cause", "### 증상", c.Text["en"].Title, c.Text["ko"].Title} {
		if !strings.Contains(text, want) {
			t.Errorf("get_incident text does not contain %q:\n%s", want, text)
		}
	}

	var ko model.Case
	text = call(t, cs, "get_incident", map[string]any{"id": "IL-0003", "lang": "ko"}, &ko)
	if _, ok := ko.Text["en"]; ok || !strings.Contains(text, "## 출처") || !strings.HasSuffix(ko.URL, "/ko/cases/IL-0003") {
		t.Errorf("get_incident lang ko: url %s, text:\n%s", ko.URL, text)
	}
}

func TestMCPListIncidents(t *testing.T) {
	cs := mcpConnect(t, "")
	var l model.ToolList
	text := call(t, cs, "list_incidents", map[string]any{"kind": "cause", "slug": "power-facility"}, &l)
	if diff := cmp.Diff([]string{"IL-0004", "IL-0003", "IL-0088"}, caseIDs(l)); diff != "" {
		t.Errorf("list_incidents cause power-facility (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(text, "# Cause: Power and facility") {
		t.Errorf("list text:\n%s", text)
	}
	call(t, cs, "list_incidents", map[string]any{"kind": "org", "slug": "cloudflare", "lang": "ko"}, &l)
	if diff := cmp.Diff([]string{"IL-0048", "IL-0090"}, caseIDs(l)); diff != "" {
		t.Errorf("list_incidents org cloudflare (-want +got):\n%s", diff)
	}
}

func TestMCPGetTopic(t *testing.T) {
	cs := mcpConnect(t, "")
	var tp model.Topic
	text := call(t, cs, "get_topic", map[string]any{"kind": "cause", "slug": "power-facility"}, &tp)
	if tp.Count != 3 || tp.Label != "Power and facility" || tp.Definition == "" {
		t.Errorf("get_topic cause power-facility = %d %q %q, want 3 cases with label and definition", tp.Count, tp.Label, tp.Definition)
	}
	years := 0
	for _, y := range tp.Years {
		years += y.Count
	}
	if years != 3 || len(tp.Related["component"]) == 0 {
		t.Errorf("get_topic: years %v, related %v", tp.Years, tp.Related)
	}
	if !strings.Contains(text, "3 cases.") || !strings.Contains(text, "2022: 3") {
		t.Errorf("get_topic text:\n%s", text)
	}
	call(t, cs, "get_topic", map[string]any{"kind": "cause", "slug": "power-facility", "lang": "ko"}, &tp)
	if tp.Label != "전력·시설" {
		t.Errorf("get_topic lang ko label = %q", tp.Label)
	}
}

func TestMCPVocab(t *testing.T) {
	cs := mcpConnect(t, "")
	tests := []struct {
		words      string
		kind, slug string
	}{
		{"재시도", "factor", "retry-amplification"},
		{"재시", "factor", "retry-amplification"}, // the beginning of a word
		{"DNS", "component", "dns"},
		{"certificate expired", "cause", "expiry"},
		{"certificate expired", "component", "certificates"},
		{"카카오", "org", "kakao"},
	}
	for _, tt := range tests {
		var v model.VocabList
		text := call(t, cs, "vocab", map[string]any{"words": tt.words}, &v)
		found := false
		for _, x := range v.Values {
			found = found || string(x.Kind) == tt.kind && x.Slug == tt.slug
		}
		if !found || !strings.Contains(text, tt.slug) {
			t.Errorf("vocab %q = %v, want %s %s", tt.words, v.Values, tt.kind, tt.slug)
		}
	}

	var all model.VocabList
	call(t, cs, "vocab", nil, &all)
	var only model.VocabList
	call(t, cs, "vocab", map[string]any{"kind": "cause"}, &only)
	if len(all.Values) < 20 || len(only.Values) == 0 || len(only.Values) >= len(all.Values) {
		t.Errorf("vocab without words: %d values, %d causes", len(all.Values), len(only.Values))
	}
	for _, v := range only.Values {
		if v.Kind != "cause" {
			t.Errorf("vocab kind cause gave %v", v.Term)
		}
	}

	var none model.VocabList
	text := call(t, cs, "vocab", map[string]any{"words": "zzzz"}, &none)
	if len(none.Values) != 0 || !strings.Contains(text, "zzzz") {
		t.Errorf("vocab zzzz = %v, %q", none.Values, text)
	}
}

// Bad arguments are tool errors that say what was wrong, never protocol failures.
func TestMCPToolErrors(t *testing.T) {
	cs := mcpConnect(t, "")
	tests := []struct {
		name string
		tool string
		args map[string]any
		want string // in the error text
	}{
		{"unknown id", "get_incident", map[string]any{"id": "IL-9999"}, "There is no case “IL-9999”"},
		{"unknown id ko", "get_incident", map[string]any{"id": "IL-9999", "lang": "ko"}, "“IL-9999” 사례는 없습니다"},
		{"unknown slug", "list_incidents", map[string]any{"kind": "cause", "slug": "gremlins"}, "“gremlins” is not a known cause"},
		{"unknown topic", "get_topic", map[string]any{"kind": "component", "slug": "gremlins"}, "“gremlins” is not a known component"},
		{"unknown filter", "search_incidents", map[string]any{"query": "dns", "org": []string{"acme"}}, "“acme” is not a known org. Find its slug with the vocab tool"},
		{"bad kind", "get_topic", map[string]any{"kind": "colour", "slug": "red"}, `The argument "kind" must be one of ` + kindList(catalog.TopicKinds) + `; it was "colour".`},
		{"page 0", "list_incidents", map[string]any{"kind": "cause", "slug": "power-facility", "page": 0}, `The argument "page" must be at least 1; it was 0.`},
		{"page past the end", "list_incidents", map[string]any{"kind": "cause", "slug": "power-facility", "page": 2}, "this list ends at page 1"},
		{"page size over 50", "search_incidents", map[string]any{"query": "dns", "page_size": 51}, `The argument "page_size" must be at most 50; it was 51.`},
		{"query too long", "search_incidents", map[string]any{"query": strings.Repeat("a", 201)}, "query"},
		{"bad lang", "vocab", map[string]any{"words": "dns", "lang": "fr"}, "lang"},
		{"missing id", "get_incident", map[string]any{}, "id"},
		{"unknown argument", "get_topic", map[string]any{"kind": "cause", "slug": "power-facility", "colour": "red"}, "colour"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, text := callTool(t, cs, tt.tool, tt.args)
			if !res.IsError {
				t.Fatalf("%s(%v) succeeded, want a tool error", tt.tool, tt.args)
			}
			if !strings.Contains(text, tt.want) {
				t.Errorf("%s(%v) error = %q, want it to contain %q", tt.tool, tt.args, text, tt.want)
			}
		})
	}
}

// Behind a proxy every request reaches the server with the public Host: it is answered, and
// links point to the configured base URL, never to a Host the client chose.
func TestMCPAnswersAnyHost(t *testing.T) {
	cs := mcpConnect(t, "incidents.example.org")
	var l model.ToolList
	call(t, cs, "list_incidents", map[string]any{"kind": "org", "slug": "kakao"}, &l)
	if len(l.Cases) != 1 || l.Cases[0].URL != "http://example.com/en/cases/IL-0003" {
		t.Errorf("cases = %+v, want IL-0003 linked on the base URL", l.Cases)
	}
}

// The endpoint shares the API's rate limit.
func TestMCPRateLimit(t *testing.T) {
	ts := httptest.NewServer(newTestServerWith(t, 0.01, 1))
	defer ts.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	var codes []int
	for range 2 {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		codes = append(codes, resp.StatusCode)
	}
	if codes[1] != http.StatusTooManyRequests {
		t.Errorf("two quick requests = %v, want the second refused with 429", codes)
	}
}

// Filter arguments are typed as plain arrays, so any client can send a list.
func TestMCPArraySchemas(t *testing.T) {
	for _, tool := range []*mcp.Tool{searchIncidentsTool, getChecklistTool} {
		b, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Properties map[string]struct {
				Type any `json:"type"`
			} `json:"properties"`
		}
		json.Unmarshal(b, &s)
		for name, p := range s.Properties {
			switch name {
			case "cause", "symptom", "component", "factor", "org", "year":
				if p.Type != "array" {
					t.Errorf("%s.%s has type %v, want array", tool.Name, name, p.Type)
				}
			}
		}
	}
}

func kindList(kinds []catalog.Kind) string {
	var s []string
	for _, k := range kinds {
		s = append(s, string(k))
	}
	return strings.Join(s, ", ")
}
