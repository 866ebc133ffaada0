// FP32 unit (docs/blocks/fpu.md): operations, rounding modes, compare codes and the helpers
// the FPU's sub-modules share. IEEE-754 binary32; subnormal inputs and results are flushed to
// zero of the same sign (results after rounding); every NaN result is the canonical quiet
// NaN 0x7FC00000.
package simt_fpu_pkg;

  /* verilator lint_off UNUSEDPARAM */

  // op_i of simt_fpu. FDiv and FSqrt go to the iterative unit (ds_valid_o, ds_result_o);
  // every other operation has the pipeline's fixed latency (valid_o, result_o, pred_o).
  typedef enum logic [3:0] {
    FAdd  = 4'd0,   // a + b
    FSub  = 4'd1,   // a - b
    FMul  = 4'd2,   // a * b
    FFma  = 4'd3,   // a * b + c, one rounding
    FMin  = 4'd4,   // minNum: a NaN operand yields the other; -0 < +0
    FMax  = 4'd5,   // maxNum
    FAbs  = 4'd6,   // clears the sign bit (a bit operation: no flush, NaN kept)
    FNeg  = 4'd7,   // flips the sign bit (likewise)
    FCmp  = 4'd8,   // pred_o = a CMP b (cmp_i); result_o = {31'b0, pred_o}
    FF2S  = 4'd9,   // f32 -> s32, rm_i, saturating, NaN -> 0
    FF2U  = 4'd10,  // f32 -> u32, rm_i, saturating, NaN -> 0
    FS2F  = 4'd11,  // s32 -> f32, rm_i
    FU2F  = 4'd12,  // u32 -> f32, rm_i
    FDiv  = 4'd13,  // a / b, correctly rounded (iterative)
    FSqrt = 4'd14   // sqrt(a), correctly rounded (iterative)
  } op_e;
  localparam int NumOps = 15;  // op_i values at or above this are undefined

  // Rounding modes (rm_i; the conversions use them, arithmetic always rounds to nearest even).
  typedef enum logic [1:0] {
    RmRne = 2'd0,  // to nearest, ties to even
    RmRtz = 2'd1,  // toward zero
    RmRdn = 2'd2,  // toward -infinity
    RmRup = 2'd3   // toward +infinity
  } rm_e;

  // Compare codes (cmp_i of FCmp): ordered (false when either operand is NaN), unordered
  // (true when either is NaN), num (neither is NaN) and nan (either is NaN).
  typedef enum logic [3:0] {
    CmpEq  = 4'd0,  CmpNe  = 4'd1,  CmpLt  = 4'd2,  CmpLe  = 4'd3,  CmpGt  = 4'd4,
    CmpGe  = 4'd5,  CmpEqu = 4'd6,  CmpNeu = 4'd7,  CmpLtu = 4'd8,  CmpLeu = 4'd9,
    CmpGtu = 4'd10, CmpGeu = 4'd11, CmpNum = 4'd12, CmpNan = 4'd13
  } cmp_e;
  localparam int NumCmps = 14;

  localparam logic [31:0] CanonicalNan = 32'h7FC0_0000;
  localparam logic [31:0] PosInf       = 32'h7F80_0000;
  localparam logic [31:0] MaxFinite    = 32'h7F7F_FFFF;
  localparam logic [31:0] MinNormal    = 32'h0080_0000;

  // Latency of the pipeline: valid_o rises this many cycles after valid_i.
  localparam int Latency = 3;
  // Latency of division and square root (ds_valid_o after valid_i); one at a time (busy_o).
  localparam int DivSqrtLatency = 27;

  // Whether rounding adds one unit in the last place: the mode, the result's sign, the kept
  // least significant bit, the first dropped bit (guard) and the OR of the rest (sticky).
  function automatic logic round_up(logic [1:0] rm, logic sign, logic lsb, logic guard,
                                    logic sticky);
    unique case (rm)
      simt_fpu_pkg::RmRne: round_up = guard && (sticky || lsb);
      simt_fpu_pkg::RmRtz: round_up = 1'b0;
      simt_fpu_pkg::RmRdn: round_up = sign && (guard || sticky);
      default:             round_up = !sign && (guard || sticky);
    endcase
  endfunction

  // A binary32 operand as the FPU sees it after the flush of subnormal inputs.
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic is_nan(logic [31:0] x);
    is_nan = x[30:23] == 8'hFF && x[22:0] != '0;
  endfunction
  function automatic logic is_inf(logic [31:0] x);
    is_inf = x[30:23] == 8'hFF && x[22:0] == '0;
  endfunction
  // Zero or subnormal: zero once flushed.
  function automatic logic is_zero_daz(logic [31:0] x);
    is_zero_daz = x[30:23] == 8'h00;
  endfunction
  // The operand with a subnormal replaced by the zero of its sign.
  function automatic logic [31:0] flush_in(logic [31:0] x);
    flush_in = x[30:23] == 8'h00 ? {x[31], 31'b0} : x;
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  /* verilator lint_on UNUSEDPARAM */

endpackage
