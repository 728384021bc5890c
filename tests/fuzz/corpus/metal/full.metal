kernel void full(
    device float* out,
    constant float& val,
    uint idx [[thread_position_in_grid]]
) {
    out[idx] = val;
}
