// European call and put prices (Black-Scholes) per option: log, sqrt, exp and erfc, the
// math built-ins from libclc; the cumulative normal is 0.5 * erfc(-x / sqrt(2)).
float cnd(float x) { return 0.5f * erfc(-x * 0.70710678118654752f); }

__kernel void black_scholes(__global const float* spot, __global const float* strike,
                            __global const float* years, __global float* call, __global float* put,
                            float rate, float vol) {
  int i = get_global_id(0);
  float s = spot[i], k = strike[i], t = years[i];
  float sq = sqrt(t);
  float d1 = (log(s / k) + (rate + 0.5f * vol * vol) * t) / (vol * sq);
  float d2 = d1 - vol * sq;
  float disc = exp(-rate * t);
  call[i] = s * cnd(d1) - k * disc * cnd(d2);
  put[i] = k * disc * cnd(-d2) - s * cnd(-d1);
}
