-- the load's progress table and statements (golden; regenerate with go test ./loader -run SegmentSQL -update)

CREATE TABLE bb_load_segment (
    table_name VARCHAR(40) NOT NULL,
    segment_no INTEGER NOT NULL,
    row_count BIGINT NOT NULL,
    committed_at TIMESTAMP NOT NULL,
    CONSTRAINT pk_bb_load_segment PRIMARY KEY (table_name, segment_no)
);

INSERT INTO bb_load_segment (table_name, segment_no, row_count, committed_at) VALUES ($1, $2, $3, CURRENT_TIMESTAMP);
SELECT table_name, segment_no, row_count FROM bb_load_segment;
DELETE FROM bb_load_segment WHERE table_name = $1;
DROP TABLE IF EXISTS bb_load_segment;
