package pgmanaged

import (
	"context"
	"maps"
	"strconv"
)

// SetMaxConnections restarts the server with max_connections at n, keeping its
// other settings and its memory cap (a cap too small for the connections' shared
// memory refuses the restart, as it refuses any start). The port may change: connect
// again with URL. A later start without it returns to DefaultSettings' limit.
func (c *Cluster) SetMaxConnections(ctx context.Context, n int) error {
	settings := maps.Clone(c.settings)
	if settings == nil {
		settings = map[string]string{}
	}
	settings["max_connections"] = strconv.Itoa(n)
	if err := c.stopServer(); err != nil {
		return err
	}
	if err := c.startCapped(ctx, settings); err != nil {
		return err
	}
	c.settings = settings
	return nil
}
