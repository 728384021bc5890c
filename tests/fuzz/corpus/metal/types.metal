constant float kScale = 0.5f;
half4 twice(half4 v) { return v * 2.0h; }
void bump(thread int& x) { x++; }
kernel void k(device uint2* out, constant int* n, uint2 p [[thread_position_in_grid]],
              ushort simd [[simdgroup_index_in_threadgroup]]) {
  int x = n[0] << 3; bump(x);
  float4 f = float4(1, 2, 3, 4) * kScale;
  half4 h = twice(half4(f.wzyx));
  out[p.x] = uint2(as_type<uint>(f.x), uint(h.y) ^ 0xFFu) + uint2(x % 7, simd);
  bool done = false;
  do { x -= 5; if (x < 0) break; continue; } while (!done);
}
