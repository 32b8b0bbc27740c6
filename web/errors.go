package web

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"incidentlib/internal/catalog"
	"incidentlib/views"
)

// InputError is a request the reader can fix: a message id and its data, shown in the page's
// language with status 400.
type InputError struct {
	ID    string         // message id, e.g. "error.bad_page"
	Param string         // the query parameter at fault, for the API
	Data  map[string]any // template data of the message
}

func (e *InputError) Error() string { return e.ID + " (" + e.Param + ")" }

// dataString returns a string value of the message data; a nil error has none.
func (e *InputError) dataString(key string) (string, bool) {
	if e == nil {
		return "", false
	}
	v, ok := e.Data[key].(string)
	return v, ok
}

func inputErr(id, param string, data map[string]any) error {
	return &InputError{ID: id, Param: param, Data: data}
}

// notFound is a 404 with a specific message.
type notFound struct {
	id   string
	data map[string]any
	err  error
	up   views.Link // where a page reader goes instead, when there is a better place than home
}

func (e *notFound) Error() string { return e.err.Error() }
func (e *notFound) Unwrap() error { return e.err }

// problem is what an error means for the reader, whichever way the answer goes out (page, API
// or MCP tool): a status, a message id with its data, and a title id for pages.
type problem struct {
	status  int
	id      string
	titleID string
	data    map[string]any
	input   *InputError // for the API's param field
	up      views.Link
}

// classify is the one place errors become answers; handleError and toolError both use it.
func classify(err error) problem {
	p := problem{status: http.StatusInternalServerError, id: "error.server", titleID: "error.server_title"}
	var in *InputError
	var nf *notFound
	var he *echo.HTTPError
	switch {
	case errors.As(err, &in):
		p = problem{status: http.StatusBadRequest, id: in.ID, titleID: "error.bad_request_title", data: in.Data, input: in}
	case errors.As(err, &nf):
		p = problem{status: http.StatusNotFound, id: nf.id, titleID: "error.not_found_title", data: nf.data, up: nf.up}
	case errors.Is(err, catalog.ErrNotFound):
		p = problem{status: http.StatusNotFound, id: "error.not_found", titleID: "error.not_found_title"}
	case errors.Is(err, context.DeadlineExceeded):
		p.status, p.id = http.StatusServiceUnavailable, "error.timeout"
	case errors.Is(err, context.Canceled):
		p.status = 499 // the client left; nobody reads the answer
	case errors.As(err, &he):
		p.status = he.Code
		switch {
		case p.status == http.StatusNotFound:
			p.id, p.titleID = "error.not_found", "error.not_found_title"
		case p.status == http.StatusMethodNotAllowed:
			p.id, p.titleID = "error.method_not_allowed", "error.bad_request_title"
		case p.status == http.StatusRequestEntityTooLarge:
			p.id, p.titleID = "error.payload_too_large", "error.bad_request_title"
		case p.status == http.StatusTooManyRequests:
			p.id, p.titleID = "error.rate_limited", "error.rate_limited_title"
		case p.status == http.StatusRequestTimeout:
			p.id, p.titleID = "error.body_timeout", "error.bad_request_title"
		case p.status < 500:
			p.id, p.titleID = "error.bad_query", "error.bad_request_title"
		}
	}
	return p
}

// handleError turns every error into one response: a page for the site, JSON for the API.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	r := c.Request()
	p := classify(err)
	status, id, data, titleID, in := p.status, p.id, p.data, p.titleID, p.input
	if status == 499 {
		c.NoContent(499)
		return
	}
	if status == http.StatusMethodNotAllowed {
		c.Response().Header().Set("Allow", allowed(r.URL.Path))
		data = map[string]any{"Allow": allowed(r.URL.Path)}
	}
	if status >= 500 {
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "status", status, "err", err,
			"request_id", c.Response().Header().Get(echo.HeaderXRequestID))
	}
	loc := views.LocaleOf(r.Context())
	if loc.Localizer == nil {
		loc = s.localeFor(r)
	}
	if machinePath(r.URL.Path) {
		loc = s.apiLocale(r)
	}
	ctx := views.WithLocale(context.WithoutCancel(r.Context()), loc)
	if kind, ok := data["Kind"].(catalog.Kind); ok && kind.Def().Kind != "" { // kind names in the reader's language
		data = maps.Clone(data)
		data["Kind"] = views.KindNoun(ctx, kind)
	}
	if machinePath(r.URL.Path) {
		s.apiError(c, status, id, in, views.T(ctx, id, data))
		return
	}
	if r.Method == http.MethodHead {
		c.NoContent(status)
		return
	}
	c.SetRequest(r.WithContext(ctx))
	if err := render(c, status, views.ErrorPage(status, views.T(ctx, titleID), views.T(ctx, id, data), p.up)); err != nil {
		s.log.Error("render error page", "err", err)
		c.String(http.StatusInternalServerError, "internal error")
	}
}

// machinePath reports whether answers at path are for programs (the API and MCP): their errors
// are JSON, in English unless lang asks otherwise.
func machinePath(path string) bool {
	return strings.HasPrefix(path, "/api/") || path == "/api" || path == "/mcp"
}

// allowed is the Allow header of a path: the methods it answers.
func allowed(path string) string {
	if path == "/mcp" {
		return "POST, OPTIONS"
	}
	return "GET, HEAD, OPTIONS"
}

// apiError writes the JSON form of an error: status, a code and a message.
func (s *Server) apiError(c echo.Context, status int, id string, in *InputError, msg string) {
	code := strings.TrimPrefix(id, "error.")
	body := map[string]any{"status": status, "code": code, "message": msg}
	if in != nil && in.Param != "" {
		body["param"] = in.Param
	}
	if closest, _ := in.dataString("Closest"); closest != "" {
		body["closest"] = strings.Split(closest, ", ")
	}
	c.JSON(status, body)
}

// apiLocale is the language of an API answer, errors included: the lang parameter when it names
// one, else English, the API's default.
func (s *Server) apiLocale(r *http.Request) *views.Locale {
	lang, ok := catalog.ParseLang(r.URL.Query().Get("lang"))
	if !ok {
		lang = defaultAPILang
	}
	return &views.Locale{Lang: lang, Localizer: s.localizers[lang], Origin: s.origin(r)}
}
