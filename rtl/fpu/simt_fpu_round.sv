// Rounds a normalised binary32 significand to the format: 1.mant * 2^(exp - 127) with the
// dropped bits summarised as guard and sticky. Overflow gives infinity or the largest finite
// number as the mode says. A result below the smallest normal number is rounded at the
// subnormal positions first (IEEE tininess after rounding to the subnormal grid) and then
// flushed to the zero of its sign unless that rounding reached 2^-126. Only an unrounded
// exponent of 0 (a value in [2^-127, 2^-126)) can round up to 2^-126. Combinational.
module simt_fpu_round (
  input  logic               sign_i,
  input  logic signed [11:0] exp_i,    // biased exponent of 1.mant
  input  logic [23:0]        mant_i,   // mant_i[23] = 1 (the caller asserts it)
  input  logic               guard_i,
  input  logic               sticky_i,
  input  logic [1:0]         rm_i,     // simt_fpu_pkg::rm_e
  output logic [31:0]        result_o
);

  logic        inc, inc_tiny, big, carry_ovf;
  logic [30:0] packed_mag;
  logic [31:0] overflow_res;

  assign inc      = simt_fpu_pkg::round_up(rm_i, sign_i, mant_i[0], guard_i, sticky_i);
  // At the subnormal grid of exponent 0 the kept bits are mant[23:1], the guard is mant[0].
  assign inc_tiny = simt_fpu_pkg::round_up(rm_i, sign_i, mant_i[1], mant_i[0],
                                           guard_i || sticky_i);
  assign big      = exp_i > 12'sd254;
  // The carry of the significand's increment moves into the exponent field.
  assign packed_mag = {exp_i[7:0], mant_i[22:0]} + {30'b0, inc};
  assign carry_ovf  = packed_mag[30:23] == 8'hFF;

  // Overflow: infinity when the mode rounds away from zero on this side, else the largest
  // finite number.
  always_comb begin
    overflow_res = {sign_i, simt_fpu_pkg::PosInf[30:0]};
    unique case (rm_i)
      simt_fpu_pkg::RmRtz: overflow_res = {sign_i, simt_fpu_pkg::MaxFinite[30:0]};
      simt_fpu_pkg::RmRdn: if (!sign_i) overflow_res = {1'b0, simt_fpu_pkg::MaxFinite[30:0]};
      simt_fpu_pkg::RmRup: if (sign_i) overflow_res = {1'b1, simt_fpu_pkg::MaxFinite[30:0]};
      default: ;
    endcase
  end

  always_comb begin
    result_o = {sign_i, 31'b0};
    if (exp_i > 12'sd0) begin
      if (big || carry_ovf) result_o = overflow_res;
      else                  result_o = {sign_i, packed_mag};
    end else if (exp_i == 12'sd0 && mant_i[23:1] == '1 && inc_tiny) begin
      result_o = {sign_i, simt_fpu_pkg::MinNormal[30:0]};
    end
  end

endmodule
