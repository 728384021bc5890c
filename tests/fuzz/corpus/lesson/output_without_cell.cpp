// %% [output]
// output before any cell
