-- sql_perfetto.sql - queries in the style of Perfetto's documentation
-- (its getting-started and trace-processor pages, its own SQL tests),
-- run unchanged by `tracetty query` and by tests/cli/sql_perfetto_oracle.py
-- over the same trace; tests/cli/sql_perfetto.sh compares the results.
-- Each query orders its rows fully and prints no ids (ids are each
-- model's own), only what the ids join.
-- name: slices
SELECT ts, dur, name FROM slice ORDER BY ts, dur, name;
-- name: slice_count
SELECT COUNT(*) AS n FROM slice;
-- name: top_names
SELECT name, COUNT(*) AS cnt, SUM(dur) AS total FROM slice
GROUP BY name ORDER BY total DESC, name LIMIT 25;
-- name: processes
SELECT pid, name FROM process WHERE pid IS NOT NULL ORDER BY pid;
-- name: threads
SELECT tid, thread.name AS name, process.pid AS pid FROM thread
LEFT JOIN process USING (upid) WHERE tid IS NOT NULL ORDER BY pid, tid;
-- name: slices_with_thread
SELECT slice.ts, slice.dur, slice.name, thread.name AS thread_name
FROM slice JOIN thread_track ON slice.track_id = thread_track.id
JOIN thread USING (utid) ORDER BY slice.ts, slice.dur, slice.name, thread_name;
-- name: slice_with_pid
SELECT s.name, dur, tid, pid FROM slice s
JOIN thread_track t ON s.track_id = t.id
JOIN thread USING (utid) LEFT JOIN process USING (upid)
ORDER BY s.ts, s.dur, s.name, tid;
-- name: instants_with_thread
SELECT thread.name AS thread_name, instant.name AS track_name, instant.ts
FROM slice instant JOIN thread_track ON instant.track_id = thread_track.id
JOIN thread USING (utid) WHERE dur = 0
ORDER BY instant.ts, track_name, thread_name;
-- name: depth_histogram
SELECT depth, COUNT(*) AS n FROM slice GROUP BY depth ORDER BY depth;
-- name: parent_child
SELECT p.name AS parent, c.name AS child, COUNT(*) AS n
FROM slice c JOIN slice p ON c.parent_id = p.id
GROUP BY 1, 2 ORDER BY n DESC, parent, child LIMIT 30;
-- name: roots_longest
SELECT name, MAX(dur) AS longest FROM slice WHERE depth = 0
GROUP BY name ORDER BY longest DESC, name LIMIT 20;
-- name: longest
SELECT name, dur FROM slice ORDER BY dur DESC, name LIMIT 10;
-- name: categories
SELECT category, COUNT(*) AS n, SUM(dur) AS total FROM slice
GROUP BY category ORDER BY category;
-- name: per_thread
SELECT thread.name AS thread_name, COUNT(*) AS n, SUM(slice.dur) AS total
FROM slice JOIN thread_track ON slice.track_id = thread_track.id
JOIN thread USING (utid) GROUP BY thread.utid ORDER BY total DESC, thread_name;
-- name: window
SELECT ts, dur, name FROM slice
WHERE ts BETWEEN (SELECT MIN(ts) FROM slice) + 1000000
             AND (SELECT MIN(ts) FROM slice) + 2000000
ORDER BY ts, dur, name;
-- name: like_name
SELECT name, ts FROM slice WHERE name LIKE '%conv%' ORDER BY ts, name LIMIT 50;
-- name: counters
SELECT ts, value FROM counter ORDER BY ts, value;
-- name: counter_by_track
SELECT counter_track.name AS track, COUNT(*) AS n, MIN(value) AS lo,
       MAX(value) AS hi, SUM(value) AS total
FROM counter JOIN counter_track ON counter.track_id = counter_track.id
GROUP BY counter_track.name ORDER BY track;
-- name: flow_count
SELECT COUNT(*) AS n FROM flow;
-- name: flow_names
SELECT s1.name AS src, s2.name AS dst, COUNT(*) AS n FROM flow
JOIN slice s1 ON flow.slice_out = s1.id
JOIN slice s2 ON flow.slice_in = s2.id
GROUP BY 1, 2 ORDER BY n DESC, src, dst LIMIT 30;
-- name: track_types
SELECT type, COUNT(*) AS n FROM track GROUP BY type ORDER BY type;
