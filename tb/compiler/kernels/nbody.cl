// One step of an n-body simulation (softened gravity, unit masses): each work-item sums the
// acceleration on its body from all bodies, staged through __local memory a tile at a time,
// then integrates velocity and position (explicit Euler).
__kernel void nbody(__global const float* pos, __global float* vel,
                    __global float* newpos, int n, float dt, float eps2, __local float* tile) {
  int i = get_global_id(0);
  int lid = get_local_id(0), lsize = get_local_size(0);
  float px = pos[3 * i], py = pos[3 * i + 1], pz = pos[3 * i + 2];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int base = 0; base < n; base += lsize) {
    tile[3 * lid] = pos[3 * (base + lid)];
    tile[3 * lid + 1] = pos[3 * (base + lid) + 1];
    tile[3 * lid + 2] = pos[3 * (base + lid) + 2];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < lsize; ++j) {
      float dx = tile[3 * j] - px, dy = tile[3 * j + 1] - py, dz = tile[3 * j + 2] - pz;
      float r2 = dx * dx + dy * dy + dz * dz + eps2;
      float inv = 1.0f / sqrt(r2);
      float s = inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  float vx = vel[3 * i] + dt * ax, vy = vel[3 * i + 1] + dt * ay, vz = vel[3 * i + 2] + dt * az;
  vel[3 * i] = vx;
  vel[3 * i + 1] = vy;
  vel[3 * i + 2] = vz;
  newpos[3 * i] = px + dt * vx;
  newpos[3 * i + 1] = py + dt * vy;
  newpos[3 * i + 2] = pz + dt * vz;
}
