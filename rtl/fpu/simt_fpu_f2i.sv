// f32 -> s32 / u32 with a rounding mode, saturating: values beyond the range (infinities
// included) give the nearest representable integer (s32: 0x7FFFFFFF or 0x80000000; u32:
// 0xFFFFFFFF or 0), NaN gives 0, a subnormal is a zero. Combinational.
//
// The significand 1.m (24 bits) is placed at bits 56:33 of a 57-bit field and shifted right
// by 158 - e: bits 56:25 are then the integer part, bit 24 the first fraction bit (guard),
// bits 23:0 the rest (sticky). e >= 159 means |x| >= 2^32.
module simt_fpu_f2i (
  input  logic [31:0] a_i,
  input  logic [1:0]  rm_i,        // simt_fpu_pkg::rm_e
  input  logic        unsigned_i,  // u32 (else s32)
  output logic [31:0] result_o
);

  logic [31:0] x, int_part;
  logic        sign, nan, huge, guard, sticky, inc;
  logic [7:0]  e, shamt;
  logic [23:0] m;
  logic [56:0] fix;
  logic [32:0] mag;

  assign x     = simt_fpu_pkg::flush_in(a_i);
  assign sign  = x[31];
  assign e     = x[30:23];
  assign nan   = simt_fpu_pkg::is_nan(x);
  assign huge  = e >= 8'd159;
  assign m     = {e != 8'd0, x[22:0]};
  assign shamt = 8'd158 - e;  // used when !huge: 0..158

  always_comb begin
    fix    = '0;
    sticky = 1'b0;
    if (shamt >= 8'd57) begin
      sticky = m != '0;
    end else begin
      fix    = {m, 33'b0} >> shamt[5:0];
      sticky = fix[23:0] != '0;
    end
  end

  assign int_part = fix[56:25];
  assign guard    = fix[24];
  assign inc      = simt_fpu_pkg::round_up(rm_i, sign, int_part[0], guard, sticky);
  assign mag      = {1'b0, int_part} + {32'b0, inc};

  always_comb begin
    result_o = '0;
    if (nan) begin
      result_o = '0;
    end else if (unsigned_i) begin
      if (sign)                result_o = '0;           // negative: 0 (or rounded to -0)
      else if (huge || mag[32]) result_o = 32'hFFFF_FFFF;
      else                     result_o = mag[31:0];
    end else begin
      if (!sign) begin
        if (huge || mag > 33'h0_7FFF_FFFF) result_o = 32'h7FFF_FFFF;
        else                               result_o = mag[31:0];
      end else begin
        if (huge || mag > 33'h0_8000_0000) result_o = 32'h8000_0000;
        else                               result_o = 32'(-mag[31:0]);
      end
    end
  end

endmodule
