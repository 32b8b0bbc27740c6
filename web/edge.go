package web

import (
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"incidentlib/internal/catalog"
)

// The edge: what every request goes through before routing. It answers HEAD like GET without a
// body, reads a raw ";" in a query as a character, and sends URL variants that people and chat
// tools produce (a trailing slash, a case id in lower case or without its dash) to the one
// canonical URL with 301.

// prepare fixes up the request for the rest of the server. It returns the writer to answer on,
// the request to route, and whether it already answered (a redirect).
func (s *Server) prepare(w http.ResponseWriter, r *http.Request) (http.ResponseWriter, *http.Request, bool) {
	if strings.Contains(r.URL.RawQuery, ";") {
		// net/url refuses ";" as a separator; a reader who typed one meant the character.
		u := *r.URL
		u.RawQuery = strings.ReplaceAll(u.RawQuery, ";", "%3B")
		r2 := *r
		r2.URL = &u
		r = &r2
	}
	if r.Method == http.MethodHead {
		// Routed as GET so it gets GET's status and headers; the body is dropped on the way out.
		r2 := *r
		r2.Method = http.MethodGet
		r = &r2
		w = &headWriter{ResponseWriter: w}
	}
	if r.Method == http.MethodGet {
		if to, ok := canonicalPath(r.URL.Path); ok {
			h := w.Header()
			h.Set("Location", localLocation(to)+query(r.URL))
			h.Set("Cache-Control", "public, max-age=86400")
			securityHeaders(h)
			w.WriteHeader(http.StatusMovedPermanently)
			return w, r, true
		}
	}
	return w, r, false
}

// headWriter answers a HEAD request: headers and status as for GET, no body.
type headWriter struct{ http.ResponseWriter }

func (h *headWriter) Write(b []byte) (int, error) { return len(b), nil }

// Unwrap lets http.ResponseController reach the connection.
func (h *headWriter) Unwrap() http.ResponseWriter { return h.ResponseWriter }

// isLocalPath reports whether a browser reads p as a path of this site whatever it holds: it
// starts with one slash, and holds no backslash (read as a slash) and no control character
// (tabs and newlines are dropped, so "/\t/evil.example" becomes "//evil.example").
func isLocalPath(p string) bool {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") {
		return false
	}
	for i := 0; i < len(p); i++ {
		if c := p[i]; c == '\\' || c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}

// localLocation writes a path of this site as a Location: percent-encoded, so that no byte of
// it can be read as the start of another host.
func localLocation(p string) string {
	if !isLocalPath(p) {
		return "/"
	}
	return (&url.URL{Path: p}).EscapedPath()
}

var looseCaseID = regexp.MustCompile(`^(?i)il-?(\d{4})$`)

// canonicalPath returns the canonical form of a path that has a trailing slash or a case id
// written loosely, and whether it differs. Only the offending parts change.
func canonicalPath(p string) (string, bool) {
	if !isLocalPath(p) || strings.Contains(p, "/../") {
		return "", false // never a redirect that leaves the site
	}
	if (!strings.HasSuffix(p, "/") || isLangRoot(p)) && canonicalIDs(p) {
		return p, false // the common case, without allocating
	}
	out := p
	if len(out) > 1 && strings.HasSuffix(out, "/") && !isLangRoot(out) {
		out = strings.TrimRight(out, "/")
		if out == "" || isLangRoot(out+"/") {
			out += "/"
		}
	}
	segs := strings.Split(out, "/")
	for i := 1; i < len(segs); i++ {
		if segs[i-1] != "cases" {
			continue
		}
		if m := looseCaseID.FindStringSubmatch(segs[i]); m != nil {
			segs[i] = "IL-" + m[1]
		}
	}
	out = strings.Join(segs, "/")
	return out, out != p
}

// canonicalIDs reports whether every segment after "cases" is already written IL-NNNN (or
// there is none).
func canonicalIDs(p string) bool {
	for rest := p; ; {
		i := strings.Index(rest, "/cases/")
		if i < 0 {
			return true
		}
		seg := rest[i+len("/cases/"):]
		if j := strings.IndexByte(seg, '/'); j >= 0 {
			seg = seg[:j]
		}
		canonical := len(seg) == 7 && strings.HasPrefix(seg, "IL-")
		if !canonical && looseCaseID.MatchString(seg) {
			return false
		}
		rest = rest[i+len("/cases"):]
	}
}

func isLangRoot(p string) bool { return len(p) == 4 && p[0] == '/' && p[3] == '/' && validLang(p[1:3]) }

// Query parameters each kind of answer reads. An answer is kept in the cache under its path and
// these parameters only, so made-up parameters, tracking tags and repeats cannot fill the cache
// with copies, and a page's links are built from the same parameters.
var (
	listingParams = append(kindParams(catalog.FilterKinds), "q", "page", "sort", "group")
	apiListParams = append(slices.Clone(listingParams), "lang", "page_size")
	caseParams    = []string{"from", "view"}
	topicParams   = []string{"page", "from"}
	langParams    = []string{"lang"}
	likeParams    = []string{"text", "lang", "limit"}
)

// paramsFor returns the query parameters the answer at path reads. It follows the routes.
func paramsFor(path string) []string {
	switch {
	case path == "/api/v1/cases":
		return apiListParams
	case strings.HasSuffix(path, "/cite") && strings.HasPrefix(path, "/api/v1/cases/"):
		return []string{"lang", "format"}
	case path == "/api/v1/checks":
		return append([]string{"lang"}, stackParams...)
	case path == "/api/v1/similar":
		return likeParams
	case strings.HasPrefix(path, "/api/v1/"):
		return langParams
	case len(path) >= 4 && path[0] == '/' && path[3] == '/' && validLang(path[1:3]):
		rest := path[4:]
		switch {
		case rest == "" || rest == "graph":
			return listingParams
		case rest == "checks":
			return stackParams
		case rest == "like":
			return []string{"text"}
		case rest == "feed.xml":
			return listingParams
		case !strings.Contains(rest, "/"):
			return []string{"q"} // an index page's typed words
		case strings.HasSuffix(rest, "/card.png"):
			return nil
		case strings.HasPrefix(rest, "cases/"):
			return caseParams
		case strings.Count(rest, "/") == 1:
			return topicParams
		}
	}
	return nil
}

// canonicalQuery keeps only the parameters in keep, in the order of keep, each value in the
// order given. It reports false for a query that does not parse.
func canonicalQuery(raw string, keep []string) (string, bool) {
	if raw == "" {
		return "", true
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	for _, k := range keep {
		for _, v := range q[k] {
			if b.Len() > 0 {
				b.WriteByte('&')
			}
			b.WriteString(url.QueryEscape(k))
			b.WriteByte('=')
			b.WriteString(url.QueryEscape(v))
		}
	}
	return b.String(), true
}

// cacheKey is where an answer is kept: the path and the parameters it reads. Never the Host:
// links are built on the configured base URL, so every host gets the same bytes.
func cacheKey(r *http.Request) (string, bool) {
	if r.URL.RawQuery == "" {
		return r.URL.Path, true
	}
	q, ok := canonicalQuery(r.URL.RawQuery, paramsFor(r.URL.Path))
	if !ok {
		return "", false
	}
	if q == "" {
		return r.URL.Path, true
	}
	return r.URL.Path + "?" + q, true
}

// acceptsGzip reads Accept-Encoding as RFC 9110 says: tokens are case-insensitive, "q=0" refuses
// an encoding, and "*" stands for any encoding not named.
func acceptsGzip(header string) bool {
	star := false
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name != "gzip" && name != "x-gzip" && name != "*" {
			continue
		}
		ok := qualityOf(params) > 0
		if name == "*" {
			star = ok
			continue
		}
		return ok
	}
	return star
}

// qualityOf reads the q parameter of an Accept-* element: 1 when absent, 0 when unreadable.
func qualityOf(params string) float64 {
	for _, p := range strings.Split(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(strings.TrimSpace(k), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || q < 0 {
				return 0
			}
			return q
		}
	}
	return 1
}

// etagMatches reports whether an If-None-Match header names the ETag (weakly compared, as
// RFC 9110 asks for If-None-Match) or is "*".
func etagMatches(header, etag string) bool {
	if header == "" {
		return false
	}
	want := strings.TrimPrefix(etag, "W/")
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == want {
			return true
		}
	}
	return false
}

// kindParams are the query parameters that name kinds.
func kindParams(kinds []catalog.Kind) []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = string(k)
	}
	return out
}
