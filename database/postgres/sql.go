package postgres

// SQL returns portable statement text unchanged: the portable form is PostgreSQL's
// own ($1 placeholders).
func SQL(portable string) string { return portable }
