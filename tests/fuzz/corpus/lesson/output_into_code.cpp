// %% a
x
// %% [output]
// 1
y
