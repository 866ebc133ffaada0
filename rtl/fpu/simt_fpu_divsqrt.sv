// The FPU's iterative division and square root: correctly rounded to nearest even, with the
// flush of subnormal inputs and results of the pipeline. Radix 2, one quotient (root) bit
// per cycle from one shared 28-bit subtractor:
//   division  the divisor's significand D, the partial remainder rem < 2D; 25 quotient bits
//             (24 and a guard bit) after the dividend's significand is doubled when it is
//             below D (the exponent then drops by one)
//   sqrt      restoring digit-by-digit square root of the significand (doubled for an odd
//             unbiased exponent) scaled by 2^25: 25 root bits, two radicand bits per step
// The remainder's being non-zero is the sticky bit, so rounding is exact. Fixed latency:
// start_i at cycle t (the edge loads the operands), 25 steps, the rounding edge: valid_o for
// one cycle at t + 27 (simt_fpu_pkg::DivSqrtLatency); busy_o from t + 1 to t + 26
// (a start while busy is illegal). Special operands (NaN, infinities, zeros, negative sqrt)
// take the same time.
module simt_fpu_divsqrt (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,
  input  logic        sqrt_i,    // square root of a_i (else a_i / b_i)
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic        busy_o,
  output logic        valid_o,
  output logic [31:0] result_o
);

  localparam int Steps = 25;  // simt_fpu_pkg::DivSqrtLatency - 2

  typedef enum logic [1:0] {
    DsIdle  = 2'd0,
    DsIter  = 2'd1,
    DsRound = 2'd2
  } ds_state_e;

  // ---------------------------------------------------------------------------------------
  // Start: operands, specials, initial remainder and exponent
  // ---------------------------------------------------------------------------------------
  logic [31:0]        x, y;
  logic               x_nan, y_nan, x_inf, y_inf, x_zero, y_zero, s_div;
  logic               st_special;
  logic [31:0]        st_spec_res;
  logic [23:0]        mx, my;
  logic               x_below;
  logic signed [11:0] st_exp;
  logic [25:0]        st_rem, st_rad;

  assign x      = simt_fpu_pkg::flush_in(a_i);
  assign y      = simt_fpu_pkg::flush_in(b_i);
  assign x_nan  = simt_fpu_pkg::is_nan(x);
  assign y_nan  = simt_fpu_pkg::is_nan(y);
  assign x_inf  = simt_fpu_pkg::is_inf(x);
  assign y_inf  = simt_fpu_pkg::is_inf(y);
  assign x_zero = simt_fpu_pkg::is_zero_daz(x);
  assign y_zero = simt_fpu_pkg::is_zero_daz(y);
  assign s_div  = x[31] ^ y[31];
  assign mx     = {1'b1, x[22:0]};
  assign my     = {1'b1, y[22:0]};
  assign x_below = mx < my;

  always_comb begin
    st_special  = 1'b1;
    st_spec_res = simt_fpu_pkg::CanonicalNan;
    if (sqrt_i) begin
      if (x_nan || (x[31] && !x_zero)) st_spec_res = simt_fpu_pkg::CanonicalNan;
      else if (x_zero)                 st_spec_res = x;             // sqrt(-0) = -0
      else if (x_inf)                  st_spec_res = simt_fpu_pkg::PosInf;
      else                             st_special  = 1'b0;
    end else begin
      if (x_nan || y_nan || (x_zero && y_zero) || (x_inf && y_inf)) begin
        st_spec_res = simt_fpu_pkg::CanonicalNan;
      end else if (x_inf || y_zero) begin
        st_spec_res = {s_div, simt_fpu_pkg::PosInf[30:0]};
      end else if (x_zero || y_inf) begin
        st_spec_res = {s_div, 31'b0};
      end else begin
        st_special = 1'b0;
      end
    end
  end

  // Division: rem = the dividend's significand, doubled when below the divisor's.
  // Square root: biased result exponent (e + 127) / 2 for an odd e (even unbiased exponent),
  // (e + 126) / 2 and a doubled radicand otherwise; the radicand's 25 bits over 26 places
  // (two per step, then zeros).
  always_comb begin
    st_rem = '0;
    st_rad = '0;
    if (sqrt_i) begin
      st_exp = $signed({4'b0, x[30:23]} + (x[23] ? 12'd127 : 12'd126)) >>> 1;
      st_rad = x[23] ? {1'b0, mx, 1'b0} : {mx, 2'b0};
    end else begin
      st_exp = $signed({4'b0, x[30:23]}) - $signed({4'b0, y[30:23]}) + 12'sd127 -
               (x_below ? 12'sd1 : 12'sd0);
      st_rem = x_below ? {1'b0, mx, 1'b0} : {2'b0, mx};
    end
  end

  // ---------------------------------------------------------------------------------------
  // Iteration
  // ---------------------------------------------------------------------------------------
  ds_state_e          state_q, state_d;
  logic [4:0]         step_q, step_d;
  logic               sqrt_q, sqrt_d, special_q, special_d, sign_q, sign_d;
  logic [31:0]        spec_res_q, spec_res_d;
  logic signed [11:0] exp_q, exp_d;
  logic [23:0]        div_q, div_d;     // the divisor's significand
  logic [25:0]        rem_q, rem_d, rad_q, rad_d;
  logic [24:0]        root_q, root_d;   // quotient or root bits
  logic               out_valid_q, out_valid_d;
  logic [31:0]        out_result_q, out_result_d;

  logic [27:0]        cand, subtr, diff;
  logic               fits;

  always_comb begin
    if (sqrt_q) begin
      cand  = {rem_q, rad_q[25:24]};
      subtr = {1'b0, root_q, 2'b01};
    end else begin
      cand  = {2'b0, rem_q};
      subtr = {4'b0, div_q};
    end
  end
  assign diff = cand - subtr;
  assign fits = cand >= subtr;

  logic [31:0] rounded;

  simt_fpu_round u_round (
    .sign_i   (sign_q),
    .exp_i    (exp_q),
    .mant_i   (root_q[24:1]),
    .guard_i  (root_q[0]),
    .sticky_i (rem_q != '0),
    .rm_i     (simt_fpu_pkg::RmRne),
    .result_o (rounded)
  );

  always_comb begin
    state_d      = state_q;
    step_d       = step_q;
    sqrt_d       = sqrt_q;
    special_d    = special_q;
    sign_d       = sign_q;
    spec_res_d   = spec_res_q;
    exp_d        = exp_q;
    div_d        = div_q;
    rem_d        = rem_q;
    rad_d        = rad_q;
    root_d       = root_q;
    out_valid_d  = 1'b0;
    out_result_d = out_result_q;
    unique case (state_q)
      DsIdle: begin
        if (start_i) begin
          state_d    = DsIter;
          step_d     = '0;
          sqrt_d     = sqrt_i;
          special_d  = st_special;
          sign_d     = sqrt_i ? 1'b0 : s_div;
          spec_res_d = st_spec_res;
          exp_d      = st_exp;
          div_d      = my;
          rem_d      = st_rem;
          rad_d      = st_rad;
          root_d     = '0;
        end
      end
      DsIter: begin
        root_d = {root_q[23:0], fits};
        if (sqrt_q) begin
          rem_d = fits ? diff[25:0] : cand[25:0];
          rad_d = {rad_q[23:0], 2'b0};
        end else begin
          rem_d = fits ? {diff[24:0], 1'b0} : {rem_q[24:0], 1'b0};
        end
        step_d = step_q + 5'd1;
        if (step_q == 5'(Steps - 1)) state_d = DsRound;
      end
      DsRound: begin
        state_d      = DsIdle;
        out_valid_d  = 1'b1;
        out_result_d = special_q ? spec_res_q : rounded;
      end
      default: state_d = DsIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= DsIdle;
      out_valid_q <= 1'b0;
    end else begin
      state_q     <= state_d;
      out_valid_q <= out_valid_d;
    end
  end

  always_ff @(posedge clk_i) begin
    step_q       <= step_d;
    sqrt_q       <= sqrt_d;
    special_q    <= special_d;
    sign_q       <= sign_d;
    spec_res_q   <= spec_res_d;
    exp_q        <= exp_d;
    div_q        <= div_d;
    rem_q        <= rem_d;
    rad_q        <= rad_d;
    root_q       <= root_d;
    out_result_q <= out_result_d;
  end

  assign busy_o   = state_q != DsIdle;
  assign valid_o  = out_valid_q;
  assign result_o = out_result_q;

`ifdef VERILATOR
  // Sampled at the clock edge, out of reset (state is random before the first reset).
  always @(posedge clk_i) begin
    if (rst_ni) begin
      // No start while busy.
      if (start_i) assert (state_q == DsIdle);
      // Division: the partial remainder stays below twice the divisor; square root: the
      // remainder fits its register.
      if (state_q == DsIter && !sqrt_q && !special_q) assert (rem_q < {1'b0, div_q, 1'b0});
      if (state_q == DsIter && sqrt_q && !special_q) assert (!fits || diff[27:26] == 2'b00);
      // The quotient or root is normalised when rounded.
      if (state_q == DsRound && !special_q) assert (root_q[24]);
      if (out_valid_q) assert (!$isunknown(out_result_q));
    end
  end
`endif

endmodule
