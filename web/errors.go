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
}

func (e *notFound) Error() string { return e.err.Error() }
func (e *notFound) Unwrap() error { return e.err }

// handleError turns every error into one response: a page for the site, JSON for the API.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	r := c.Request()
	status, id, data := http.StatusInternalServerError, "error.server", map[string]any(nil)
	titleID := "error.server_title"
	var in *InputError
	var nf *notFound
	var he *echo.HTTPError
	switch {
	case errors.As(err, &in):
		status, id, data, titleID = http.StatusBadRequest, in.ID, in.Data, "error.bad_request_title"
	case errors.As(err, &nf):
		status, id, data, titleID = http.StatusNotFound, nf.id, nf.data, "error.not_found_title"
	case errors.Is(err, catalog.ErrNotFound):
		status, id, titleID = http.StatusNotFound, "error.not_found", "error.not_found_title"
	case errors.Is(err, context.DeadlineExceeded):
		status, id = http.StatusServiceUnavailable, "error.timeout"
	case errors.Is(err, context.Canceled):
		// the client left; nobody reads this response
		c.NoContent(499)
		return
	case errors.As(err, &he):
		status = he.Code
		switch {
		case status == http.StatusNotFound:
			id, titleID = "error.not_found", "error.not_found_title"
		case status == http.StatusMethodNotAllowed:
			id, titleID = "error.method_not_allowed", "error.bad_request_title"
			c.Response().Header().Set("Allow", "GET, HEAD")
		case status == http.StatusRequestEntityTooLarge:
			id, titleID = "error.payload_too_large", "error.bad_request_title"
		case status == http.StatusTooManyRequests:
			id, titleID = "error.rate_limited", "error.bad_request_title"
		case status < 500:
			id, titleID = "error.bad_query", "error.bad_request_title"
		}
	}
	if status >= 500 {
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "status", status, "err", err,
			"request_id", c.Response().Header().Get(echo.HeaderXRequestID))
	}
	loc := views.LocaleOf(r.Context())
	if loc.Localizer == nil {
		loc = s.localeFor(r)
	}
	if strings.HasPrefix(r.URL.Path, "/api/") {
		loc = s.apiLocale(r)
	}
	ctx := views.WithLocale(context.WithoutCancel(r.Context()), loc)
	if kind, ok := data["Kind"].(string); ok { // kind names in the reader's language
		data = maps.Clone(data)
		data["Kind"] = views.KindNoun(ctx, kind)
	}
	if strings.HasPrefix(r.URL.Path, "/api/") || strings.HasPrefix(r.URL.Path, "/mcp") {
		s.apiError(c, status, id, in, views.T(ctx, id, data))
		return
	}
	if r.Method == http.MethodHead {
		c.NoContent(status)
		return
	}
	c.SetRequest(r.WithContext(ctx))
	if err := render(c, status, views.ErrorPage(status, views.T(ctx, titleID), views.T(ctx, id, data))); err != nil {
		s.log.Error("render error page", "err", err)
		c.String(http.StatusInternalServerError, "internal error")
	}
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
	lang := r.URL.Query().Get("lang")
	if !validLang(lang) {
		lang = "en"
	}
	return &views.Locale{Lang: lang, Localizer: s.localizers[lang], Origin: s.origin(r)}
}
