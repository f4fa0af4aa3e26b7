package web

import "github.com/cleanex/cleanex/internal/chart"

// ChartTheme returns the charts' theme for the page's media: dark when the
// browser prefers a dark colour scheme, light otherwise and whenever the page
// is printed (paper is white).
func ChartTheme(prefersDark, printing bool) chart.Theme {
	if prefersDark && !printing {
		return chart.Dark()
	}
	return chart.Light()
}

// ExportTheme is the theme of an exported chart image: always light, so
// that a PNG saved from a page in dark mode goes into a paper or a slide
// as it would from a light page.
func ExportTheme() chart.Theme { return chart.Light() }
