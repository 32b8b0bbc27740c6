package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"incidentlib/internal/catalog"
)

func openAPIRouter(t *testing.T) routers.Router {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(openAPIDoc)
	if err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("openapi.json is not a valid OpenAPI document: %v", err)
	}
	doc.Servers = openapi3.Servers{{URL: "http://example.com/api/v1"}}
	r, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// apiGet fetches path and checks the response against the OpenAPI document.
func apiGet(t *testing.T, s http.Handler, router routers.Router, path string, wantStatus int) map[string]any {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "http://example.com"+path, nil)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != wantStatus {
		t.Fatalf("GET %s = %d, want %d: %s", path, rec.Code, wantStatus, rec.Body.String())
	}
	route, params, err := router.FindRoute(req)
	if err != nil {
		t.Fatalf("GET %s: no route in the OpenAPI document: %v", path, err)
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: rec.Code, Header: rec.Header(),
		Body: io.NopCloser(strings.NewReader(rec.Body.String())), Options: &openapi3filter.Options{IncludeResponseStatus: true}}
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		t.Errorf("GET %s: response does not match the OpenAPI document: %v", path, err)
	}
	var body map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("GET %s: not JSON: %v", path, err)
	}
	if rec.Header().Get("ETag") == "" && rec.Code == 200 {
		t.Errorf("GET %s: no ETag", path)
	}
	if rec.Header().Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("GET %s: CORS not open", path)
	}
	return body
}

func TestAPIMatchesOpenAPI(t *testing.T) {
	s := newTestServer(t)
	router := openAPIRouter(t)
	tests := []struct {
		path   string
		status int
		check  func(t *testing.T, b map[string]any)
	}{
		{"/api/v1/cases", 200, func(t *testing.T, b map[string]any) {
			if b["total"].(float64) != 9 {
				t.Errorf("total = %v, want 9", b["total"])
			}
		}},
		{"/api/v1/cases?cause=power-facility&lang=ko", 200, func(t *testing.T, b map[string]any) {
			cases := b["cases"].([]any)
			if len(cases) != 3 || cases[0].(map[string]any)["id"] != "IL-0004" {
				t.Errorf("cases = %v, want IL-0004 first of 3", cases)
			}
		}},
		{"/api/v1/cases?q=%ED%99%94%EC%9E%AC&page_size=1", 200, func(t *testing.T, b map[string]any) {
			if b["page_size"].(float64) != 1 || len(b["cases"].([]any)) != 1 || b["sort"] != "relevance" {
				t.Errorf("paging or sort wrong: %v", b)
			}
		}},
		{"/api/v1/cases/IL-0003", 200, func(t *testing.T, b map[string]any) {
			text := b["text"].(map[string]any)
			if text["ko"] == nil || text["en"] == nil {
				t.Errorf("text = %v, want both languages", text)
			}
		}},
		{"/api/v1/cases/IL-0003?lang=en", 200, func(t *testing.T, b map[string]any) {
			if text := b["text"].(map[string]any); text["ko"] != nil {
				t.Errorf("lang=en returned Korean too")
			}
		}},
		{"/api/v1/cases/IL-0003/similar", 200, func(t *testing.T, b map[string]any) {
			for _, r := range b["similar"].([]any) {
				if r.(map[string]any)["id"] == "IL-0003" {
					t.Error("a case is similar to itself")
				}
			}
		}},
		{"/api/v1/similar?text=battery+room+fire+in+the+data+center&lang=ko", 200, func(t *testing.T, b map[string]any) {
			if cs := b["cases"].([]any); len(cs) == 0 || cs[0].(map[string]any)["id"] != "IL-0003" {
				t.Errorf("similar cases = %v, want IL-0003 first", cs)
			}
		}},
		{"/api/v1/release", 200, func(t *testing.T, b map[string]any) {
			if b["cases"].(float64) != 9 || b["license"] != "CC-BY-4.0" {
				t.Errorf("release = %v", b)
			}
		}},
		{"/api/v1/similar", 400, func(t *testing.T, b map[string]any) {
			if b["param"] != "text" {
				t.Errorf("error = %v, want param text", b)
			}
		}},
		{"/api/v1/vocab?lang=ko", 200, func(t *testing.T, b map[string]any) {
			if len(b["vocab"].(map[string]any)["cause"].([]any)) < 10 {
				t.Error("vocab has too few causes")
			}
		}},
		{"/api/v1/topics/cause/power-facility", 200, func(t *testing.T, b map[string]any) {
			if b["count"].(float64) != 3 {
				t.Errorf("count = %v, want 3", b["count"])
			}
		}},
		{"/api/v1/cases/IL-9999", 404, func(t *testing.T, b map[string]any) {
			if b["code"] != "case_not_found" {
				t.Errorf("code = %v", b["code"])
			}
		}},
		{"/api/v1/topics/cause/nope", 404, nil},
		{"/api/v1/cases?page=0", 400, func(t *testing.T, b map[string]any) {
			if b["param"] != "page" || b["code"] != "bad_page" {
				t.Errorf("error = %v, want param page, code bad_page", b)
			}
		}},
		{"/api/v1/cases?page_size=1000", 400, func(t *testing.T, b map[string]any) {
			if b["param"] != "page_size" {
				t.Errorf("error = %v, want param page_size", b)
			}
		}},
		{"/api/v1/cases?cause=gremlins", 400, func(t *testing.T, b map[string]any) {
			if b["param"] != "cause" || !strings.Contains(b["message"].(string), "gremlins") {
				t.Errorf("error = %v", b)
			}
		}},
		{"/api/v1/cases?lang=fr", 400, nil},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			b := apiGet(t, s, router, tt.path, tt.status)
			if tt.check != nil {
				tt.check(t, b)
			}
		})
	}
}

func TestAPIETag(t *testing.T) {
	s := newTestServer(t)
	r := get(t, s, "/api/v1/cases/IL-0003")
	etag := r.header.Get("ETag")
	if etag == "" || !strings.Contains(r.header.Get("Cache-Control"), "max-age") {
		t.Fatalf("ETag %q, Cache-Control %q", etag, r.header.Get("Cache-Control"))
	}
	if r2 := get(t, s, "/api/v1/cases/IL-0003", "If-None-Match", etag); r2.status != http.StatusNotModified {
		t.Errorf("If-None-Match = %d, want 304", r2.status)
	}
}

func TestAPIRateLimit(t *testing.T) {
	s := newTestServerWith(t, 1, 2)
	codes := map[int]int{}
	var retry string
	for i := 0; i < 5; i++ {
		r := get(t, s, "/api/v1/vocab")
		codes[r.status]++
		if r.status == http.StatusTooManyRequests {
			retry = r.header.Get("Retry-After")
		}
	}
	if codes[200] != 2 || codes[429] != 3 || retry == "" {
		t.Errorf("statuses %v, Retry-After %q; want 2 OK then 429 with Retry-After", codes, retry)
	}
	if r := get(t, s, "/en/"); r.status != 200 {
		t.Errorf("pages are rate limited too: %d", r.status)
	}
}

// One language rule: answers are in English unless lang=ko; a case asked for without lang
// carries both languages' text with English labels and links; errors follow lang.
func TestAPILanguageRule(t *testing.T) {
	s := newTestServer(t)
	var c struct {
		URL  string                     `json:"url"`
		Org  struct{ Label string }     `json:"org"`
		Text map[string]json.RawMessage `json:"text"`
	}
	json.Unmarshal([]byte(get(t, s, "/api/v1/cases/IL-0003").body), &c)
	if !strings.HasSuffix(c.URL, "/en/cases/IL-0003") || c.Org.Label != "Kakao" || len(c.Text) != 2 {
		t.Errorf("case without lang: url %s, org %q, %d languages", c.URL, c.Org.Label, len(c.Text))
	}
	json.Unmarshal([]byte(get(t, s, "/api/v1/cases/IL-0003?lang=ko").body), &c)
	if !strings.HasSuffix(c.URL, "/ko/cases/IL-0003") || c.Org.Label != "카카오" {
		t.Errorf("case with lang=ko: url %s, org %q", c.URL, c.Org.Label)
	}
	for path, want := range map[string]string{"/api/v1/cases/IL-9999": "There is no case", "/api/v1/cases/IL-9999?lang=ko": "사례는 없습니다",
		"/api/v1/cases?page=9999": "There is no page 9999", "/api/v1/cases?page=9999&lang=ko": "9999페이지는 없습니다"} {
		if r := get(t, s, path); !strings.Contains(r.body, want) {
			t.Errorf("%s = %s, want %q", path, r.body, want)
		}
	}
}

// The document lists a filter parameter per kind and a case's values per taxonomy kind, from
// catalog.Kinds, and the text's fields from catalog.Fields.
func TestOpenAPIFollowsKindsAndFields(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromData(openAPIDoc)
	if err != nil {
		t.Fatal(err)
	}
	op := doc.Paths.Find("/cases").Get
	for _, k := range catalog.FilterKinds {
		if p := op.Parameters.GetByInAndName("query", string(k)); p == nil || !p.Schema.Value.Type.Is("array") {
			t.Errorf("GET /cases has no list parameter %q", k)
		}
	}
	kase := doc.Components.Schemas["Case"].Value
	for _, k := range catalog.VocabKinds {
		if kase.Properties[k.Plural()] == nil || !slices.Contains(kase.Required, k.Plural()) {
			t.Errorf("Case has no required property %q", k.Plural())
		}
	}
	text := doc.Components.Schemas["Text"].Value
	for _, f := range catalog.Fields {
		if text.Properties[f.Key] == nil || f.Required != slices.Contains(text.Required, f.Key) {
			t.Errorf("Text property %q: %v, required %v", f.Key, text.Properties[f.Key], f.Required)
		}
	}
}
