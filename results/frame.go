package results

import (
	"fmt"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// A Field is one column of a frame that [Build] makes from a slice of T:
// its name, its kind and its value for one item (a string, an int or
// int64, a float64 or a bool, as the kind says).
type Field[T any] struct {
	Name  string
	Kind  Kind
	Value func(*T) any
}

// Build is umlab's one DataFrame builder: one typed column per field, one
// row per item, in order. Schema columns take their kind from [Columns]
// through [RowFields] or [ConfigFields]; other columns (summary statistics,
// fleet comparisons) name their own. A value of the wrong type puts an
// error in the frame's Err field, as gota does.
func Build[T any](items []T, fields ...Field[T]) dataframe.DataFrame {
	cols := make([]series.Series, len(fields))
	for fi, f := range fields {
		var err error
		switch f.Kind {
		case String:
			v := make([]string, len(items))
			for i := range items {
				x, ok := f.Value(&items[i]).(string)
				if !ok && err == nil {
					err = fmt.Errorf("results: column %s: %T is not a string", f.Name, f.Value(&items[i]))
				}
				v[i] = x
			}
			cols[fi] = series.New(v, series.String, f.Name)
		case Int:
			v := make([]int, len(items))
			for i := range items {
				switch x := f.Value(&items[i]).(type) {
				case int:
					v[i] = x
				case int64:
					v[i] = int(x)
				default:
					if err == nil {
						err = fmt.Errorf("results: column %s: %T is not an integer", f.Name, x)
					}
				}
			}
			cols[fi] = series.New(v, series.Int, f.Name)
		case Float:
			v := make([]float64, len(items))
			for i := range items {
				x, ok := f.Value(&items[i]).(float64)
				if !ok && err == nil {
					err = fmt.Errorf("results: column %s: %T is not a float64", f.Name, f.Value(&items[i]))
				}
				v[i] = x
			}
			cols[fi] = series.New(v, series.Float, f.Name)
		case Bool:
			v := make([]bool, len(items))
			for i := range items {
				x, ok := f.Value(&items[i]).(bool)
				if !ok && err == nil {
					err = fmt.Errorf("results: column %s: %T is not a bool", f.Name, f.Value(&items[i]))
				}
				v[i] = x
			}
			cols[fi] = series.New(v, series.Bool, f.Name)
		default:
			err = fmt.Errorf("results: column %s: unknown kind %d", f.Name, f.Kind)
		}
		if err != nil {
			return dataframe.DataFrame{Err: err}
		}
	}
	return dataframe.New(cols...)
}

// RowFields returns the fields of the named schema columns of a row, kinds
// from [Columns]; an unknown name is a string column of empty values.
func RowFields(cols ...string) []Field[Row] {
	return ConfigFields(func(r *Row) *Row { return r }, cols...)
}

// ConfigFields returns the fields of the named schema columns of the row
// that row(item) returns: a summary's or a comparison's configuration, say.
func ConfigFields[T any](row func(*T) *Row, cols ...string) []Field[T] {
	out := make([]Field[T], len(cols))
	for i, name := range cols {
		c, ok := ColumnOf(name)
		if !ok {
			c = Column{Name: name, Kind: String}
		}
		out[i] = Field[T]{Name: name, Kind: c.Kind, Value: func(t *T) any {
			v, err := row(t).Value(name)
			if err != nil {
				return ""
			}
			return v
		}}
	}
	return out
}

// Names returns the names of columns, in order.
func Names(cols []Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}
