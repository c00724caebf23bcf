"""The tool pipeline the query loop drives: each call validated, hooked, permitted, run
(`executor`), and calls scheduled as their blocks stream in (`streaming`)."""
