package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"incidentlib/internal/catalog/build"
	"incidentlib/views"
)

// The open-data release: the page that offers it, its files, and the API's door to them.

// showData renders the open-data page: the release, its files with their sizes, how to load
// them, the license and how to cite the dataset.
func (s *Server) showData(c echo.Context) error {
	ctx := c.Request().Context()
	r, err := s.cat.Release(ctx)
	if err != nil {
		return err
	}
	changes, err := s.cat.Changelog(ctx, pageLang(c), 30)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.DataPage(views.DataView{Release: r, Changelog: changes}))
}

// serveDownload sends a file of the release as it is kept: gzip-compressed, named with the
// release's version.
func (s *Server) serveDownload(c echo.Context, format string) error {
	if format == "schema" {
		c.Response().Header().Set("Cache-Control", pageCacheControl)
		return c.Blob(http.StatusOK, "application/schema+json", build.ExportSchema)
	}
	ctx := c.Request().Context()
	body, err := s.cat.ExportFile(ctx, format)
	if err != nil {
		return err
	}
	r, err := s.cat.Release(ctx)
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Cache-Control", pageCacheControl)
	h.Set("ETag", `"`+r.Version+"-"+format+`"`)
	h.Set("Content-Disposition", `attachment; filename="incidentlib-`+r.Version+"."+format+`.gz"`)
	h.Set("X-Release", r.Version)
	if etagMatches(c.Request().Header.Get("If-None-Match"), h.Get("ETag")) {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, "application/gzip", body)
}

// downloadFile serves /data/incidentlib.{jsonl,csv}.gz and the schema.
func (s *Server) downloadFile(format string) echo.HandlerFunc {
	return func(c echo.Context) error { return s.serveDownload(c, format) }
}

// apiExport serves the same files: format=jsonl (the default) or csv.
func (s *Server) apiExport(c echo.Context) error {
	switch f := c.QueryParam("format"); f {
	case "", "jsonl":
		return s.serveDownload(c, "jsonl")
	case "csv":
		return s.serveDownload(c, "csv")
	default:
		return inputErr("error.bad_export_format", "format", map[string]any{"Value": clipValue(f)})
	}
}

// apiRelease says which release the catalog holds.
func (s *Server) apiRelease(c echo.Context) error {
	r, err := s.cat.Release(c.Request().Context())
	if err != nil {
		return err
	}
	origin := s.origin(c.Request())
	return s.apiJSON(c, map[string]any{"version": r.Version, "cases": r.Cases, "sizes": r.Sizes,
		"files": map[string]string{"jsonl": origin + views.DownloadURL("jsonl"), "csv": origin + views.DownloadURL("csv"),
			"schema": origin + views.DownloadURL("schema")}, "license": "CC-BY-4.0"})
}
