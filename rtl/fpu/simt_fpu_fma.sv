// The FPU's fused multiply-add pipeline: fadd, fsub, fmul and ffma as x * y + z with one
// rounding (add: y = 1.0; mul: z = -0, the identity of addition), and s32/u32 -> f32, which
// enter at the adder as a product. Three stages:
//   A  operands flushed, specials, 24x24 product, addend aligned against the product
//   B  74-bit add or subtract (two's complement, magnitude), leading zeros, normalisation
//   C  rounding (simt_fpu_round), special results; registered to the outputs
// valid_o and result_o follow valid_i by simt_fpu_pkg::Latency (3) cycles.
//
// Accumulator: the product's 48 bits sit at window bits 47:0; the addend's 24 bits start at
// 73:50 and shift right by (Ep - Ez + 27), clamped to 0..76, their bits below the window
// ORed into a sticky bit one place below bit 0 (so a subtraction borrows correctly). When
// the addend exceeds the product by more than 27 binades, the product stays at 47:0, two or
// more places below the addend, where it only decides guard and sticky exactly as it would
// further down. Window bit 0 weighs 2^(max(Ep - 46, Ez - 73) - 127).
module simt_fpu_fma (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        valid_i,
  input  logic [3:0]  op_i,      // simt_fpu_pkg::op_e: FAdd FSub FMul FFma FS2F FU2F
  input  logic [1:0]  rm_i,      // the conversions' mode; arithmetic rounds to nearest even
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic [31:0] c_i,
  output logic        valid_o,
  output logic [31:0] result_o
);

  localparam logic [31:0] One     = 32'h3F80_0000;
  localparam logic [31:0] NegZero = 32'h8000_0000;
  localparam int          AccW    = 76;  // sign, 74-bit window, sticky place
  localparam int          MagW    = 75;

  // ---------------------------------------------------------------------------------------
  // Stage A
  // ---------------------------------------------------------------------------------------
  logic               is_i2f, int_neg;
  logic [31:0]        x, y, z, int_mag;
  logic               x_nan, y_nan, z_nan, x_inf, y_inf, z_inf, x_zero, y_zero, z_zero;
  logic               sp, sz, a_special, a_zero_sign;
  logic [31:0]        a_spec_res;
  logic [1:0]         a_rm;
  logic signed [11:0] ep, ez, z_dist, a_ewin0;
  logic [6:0]         shamt;
  logic [23:0]        mx, my, mz;
  logic [99:0]        z_shifted;
  logic [47:0]        a_prod;
  logic [73:0]        a_zwin;
  logic               a_zst, a_sign, a_eff_sub;

  assign is_i2f = op_i == simt_fpu_pkg::FS2F || op_i == simt_fpu_pkg::FU2F;
  assign a_rm   = is_i2f ? rm_i : simt_fpu_pkg::RmRne;

  always_comb begin
    x = simt_fpu_pkg::flush_in(a_i);
    y = One;
    z = NegZero;
    unique case (op_i)
      simt_fpu_pkg::FAdd: z = simt_fpu_pkg::flush_in(b_i);
      simt_fpu_pkg::FSub: z = simt_fpu_pkg::flush_in({~b_i[31], b_i[30:0]});
      simt_fpu_pkg::FMul: y = simt_fpu_pkg::flush_in(b_i);
      simt_fpu_pkg::FFma: begin
        y = simt_fpu_pkg::flush_in(b_i);
        z = simt_fpu_pkg::flush_in(c_i);
      end
      default: ;
    endcase
  end

  assign x_nan  = simt_fpu_pkg::is_nan(x);
  assign y_nan  = simt_fpu_pkg::is_nan(y);
  assign z_nan  = simt_fpu_pkg::is_nan(z);
  assign x_inf  = simt_fpu_pkg::is_inf(x);
  assign y_inf  = simt_fpu_pkg::is_inf(y);
  assign z_inf  = simt_fpu_pkg::is_inf(z);
  assign x_zero = simt_fpu_pkg::is_zero_daz(x);
  assign y_zero = simt_fpu_pkg::is_zero_daz(y);
  assign z_zero = simt_fpu_pkg::is_zero_daz(z);
  assign sp     = x[31] ^ y[31];
  assign sz     = z[31];

  // Specials: NaN in, inf * 0, inf - inf -> NaN; infinities; a zero product (exact z, or a
  // zero whose sign is the operands' common sign, else +0).
  always_comb begin
    a_zero_sign = sp == sz ? sp : 1'b0;
    a_special   = !is_i2f;
    a_spec_res  = simt_fpu_pkg::CanonicalNan;
    if (is_i2f) begin
      a_zero_sign = 1'b0;
    end else if (x_nan || y_nan || z_nan || (x_inf && y_zero) || (x_zero && y_inf) ||
                 ((x_inf || y_inf) && z_inf && sp != sz)) begin
      a_spec_res = simt_fpu_pkg::CanonicalNan;
    end else if (x_inf || y_inf) begin
      a_spec_res = {sp, simt_fpu_pkg::PosInf[30:0]};
    end else if (z_inf) begin
      a_spec_res = z;
    end else if (x_zero || y_zero) begin
      a_spec_res = z_zero ? {a_zero_sign, 31'b0} : z;
    end else begin
      a_special = 1'b0;
    end
  end

  // Exponents are biased; Ep is the product's (its significand is in [1, 4)).
  assign mx      = {1'b1, x[22:0]};
  assign my      = {1'b1, y[22:0]};
  assign mz      = {!z_zero, z[22:0]};
  assign ep      = $signed({4'b0, x[30:23]}) + $signed({4'b0, y[30:23]}) - 12'sd127;
  assign ez      = $signed({4'b0, z[30:23]});
  assign z_dist    = ep - ez + 12'sd27;

  always_comb begin
    if (z_zero || z_dist > 12'sd76) shamt = 7'd76;
    else if (z_dist < 12'sd0)       shamt = 7'd0;
    else                          shamt = z_dist[6:0];
  end

  assign z_shifted = {mz, 76'b0} >> shamt;
  assign int_neg   = op_i == simt_fpu_pkg::FS2F && a_i[31];
  assign int_mag   = int_neg ? 32'(-a_i) : a_i;

  always_comb begin
    if (is_i2f) begin
      // The integer as a product at window bits 31:0, window bit 0 weighing 2^0.
      a_prod    = {16'b0, int_mag};
      a_zwin    = '0;
      a_zst     = 1'b0;
      a_sign    = int_neg;
      a_eff_sub = 1'b0;
      a_ewin0   = 12'sd127;
    end else begin
      a_prod    = mx * my;
      a_zwin    = z_shifted[99:26];
      a_zst     = z_shifted[25:0] != '0;
      a_sign    = sp;
      a_eff_sub = sp != sz;
      a_ewin0   = (!z_zero && z_dist < 12'sd0) ? ez - 12'sd73 : ep - 12'sd46;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Stage B
  // ---------------------------------------------------------------------------------------
  logic               b_valid_q, b_special_q, b_zero_sign_q, b_sign_q, b_eff_sub_q, b_zst_q;
  logic [31:0]        b_spec_res_q;
  logic [1:0]         b_rm_q;
  logic signed [11:0] b_ewin0_q;
  logic [47:0]        b_prod_q;
  logic [73:0]        b_zwin_q;

  logic [AccW-1:0]    acc_p, acc_z, sum;
  logic               sum_neg;
  logic [MagW-1:0]    mag, norm;
  logic [6:0]         lz;
  logic               mag_zero;
  logic               b_sign;
  logic signed [11:0] b_exp;

  assign acc_p   = {27'b0, b_prod_q, 1'b0};
  assign acc_z   = {1'b0, b_zwin_q, b_zst_q};
  assign sum     = b_eff_sub_q ? acc_p - acc_z : acc_p + acc_z;
  assign sum_neg = b_eff_sub_q && sum[AccW-1];
  // The magnitude: the low bits of the negation are the negation of the low bits.
  assign mag     = sum_neg ? ~sum[MagW-1:0] + MagW'(1) : sum[MagW-1:0];
  assign b_sign  = sum_neg ? !b_sign_q : b_sign_q;

  simt_fpu_lzc #(.Width(MagW)) u_lzc (
    .in_i   (mag),
    .cnt_o  (lz),
    .norm_o (norm),
    .zero_o (mag_zero)
  );

  // The leading one at window bit 73 - lz.
  assign b_exp = b_ewin0_q + 12'sd73 - $signed({5'b0, lz});

  // ---------------------------------------------------------------------------------------
  // Stage C
  // ---------------------------------------------------------------------------------------
  logic               c_valid_q, c_special_q, c_zero_sign_q, c_sign_q, c_zero_q;
  logic               c_guard_q, c_sticky_q;
  logic [31:0]        c_spec_res_q, c_rounded, c_result;
  logic [1:0]         c_rm_q;
  logic signed [11:0] c_exp_q;
  logic [23:0]        c_mant_q;

  simt_fpu_round u_round (
    .sign_i   (c_sign_q),
    .exp_i    (c_exp_q),
    .mant_i   (c_mant_q),
    .guard_i  (c_guard_q),
    .sticky_i (c_sticky_q),
    .rm_i     (c_rm_q),
    .result_o (c_rounded)
  );

  always_comb begin
    c_result = c_rounded;
    if (c_special_q)   c_result = c_spec_res_q;
    else if (c_zero_q) c_result = {c_zero_sign_q, 31'b0};
  end

  // ---------------------------------------------------------------------------------------
  // Registers: the valid bits reset, the data follows them.
  // ---------------------------------------------------------------------------------------
  logic        out_valid_q;
  logic [31:0] out_result_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      b_valid_q   <= 1'b0;
      c_valid_q   <= 1'b0;
      out_valid_q <= 1'b0;
    end else begin
      b_valid_q   <= valid_i;
      c_valid_q   <= b_valid_q;
      out_valid_q <= c_valid_q;
    end
  end

  always_ff @(posedge clk_i) begin
    b_special_q   <= a_special;
    b_spec_res_q  <= a_spec_res;
    b_zero_sign_q <= a_zero_sign;
    b_rm_q        <= a_rm;
    b_sign_q      <= a_sign;
    b_eff_sub_q   <= a_eff_sub;
    b_ewin0_q     <= a_ewin0;
    b_prod_q      <= a_prod;
    b_zwin_q      <= a_zwin;
    b_zst_q       <= a_zst;

    c_special_q   <= b_special_q;
    c_spec_res_q  <= b_spec_res_q;
    c_zero_sign_q <= b_zero_sign_q;
    c_rm_q        <= b_rm_q;
    c_sign_q      <= b_sign;
    c_zero_q      <= mag_zero;
    c_exp_q       <= b_exp;
    c_mant_q      <= norm[MagW-1 -: 24];
    c_guard_q     <= norm[MagW-25];
    c_sticky_q    <= norm[MagW-26:0] != '0;

    out_result_q  <= c_result;
  end

  assign valid_o  = out_valid_q;
  assign result_o = out_result_q;

`ifdef VERILATOR
  // Sampled at the clock edge, out of reset (the data registers are not reset).
  always @(posedge clk_i) begin
    if (rst_ni) begin
      // An effective addition never carries out of the window.
      if (b_valid_q && !b_special_q && !b_eff_sub_q) assert (!sum[AccW-1]);
      // After normalisation the leading one is at the top (unless the sum is zero).
      if (b_valid_q && !b_special_q && !mag_zero) assert (norm[MagW-1]);
      // The rounder sees a normalised significand; the result is never unknown.
      if (c_valid_q && !c_special_q && !c_zero_q) assert (c_mant_q[23]);
      if (out_valid_q) assert (!$isunknown(out_result_q));
    end
  end
`endif

endmodule
