// One lane's FP32 pipeline (docs/blocks/fpu.md): every operation but division and square
// root, Latency (3) cycles from valid_i to valid_o, one a cycle. simt_fpu puts it beside the
// iterative unit (simt_fpu_divsqrt); the SM's FP unit (simt_sm_fpu) uses the two apart, so a
// division can start beside a pipelined operation. FDiv and FSqrt are not its operations:
// valid_i with one of them gives nothing (the caller starts the iterative unit instead).
// Arithmetic rounds to nearest even; the conversions take rm_i. An undefined op_i gives
// valid_o with result 0 and pred 0 (and fails an assertion).
module simt_fpu_pipe (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        valid_i,
  input  logic [3:0]  op_i,       // simt_fpu_pkg::op_e
  input  logic [1:0]  rm_i,       // simt_fpu_pkg::rm_e: conversions only
  input  logic [3:0]  cmp_i,      // simt_fpu_pkg::cmp_e: FCmp only
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic [31:0] c_i,        // ffma's addend
  output logic        valid_o,
  output logic [31:0] result_o,
  output logic        pred_o      // FCmp's predicate (0 for the other operations)
);

  localparam int Stages = simt_fpu_pkg::Latency;

  logic is_fma, is_ds, is_direct;
  logic fma_valid;

  always_comb begin
    is_fma = 1'b0;
    is_ds  = 1'b0;
    unique case (op_i)
      simt_fpu_pkg::FAdd, simt_fpu_pkg::FSub, simt_fpu_pkg::FMul, simt_fpu_pkg::FFma,
      simt_fpu_pkg::FS2F, simt_fpu_pkg::FU2F: is_fma = 1'b1;
      simt_fpu_pkg::FDiv, simt_fpu_pkg::FSqrt: is_ds = 1'b1;
      default: ;
    endcase
  end
  assign is_direct = !is_fma && !is_ds;

  // ---------------------------------------------------------------------------------------
  // The fused multiply-add pipeline (and integer -> float)
  // ---------------------------------------------------------------------------------------
  logic        fma_valid_o;
  logic [31:0] fma_result;

  assign fma_valid = valid_i && is_fma;

  simt_fpu_fma u_fma (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (fma_valid),
    .op_i     (op_i),
    .rm_i     (rm_i),
    .a_i      (a_i),
    .b_i      (b_i),
    .c_i      (c_i),
    .valid_o  (fma_valid_o),
    .result_o (fma_result)
  );

  // ---------------------------------------------------------------------------------------
  // Single-cycle operations, computed at the input and carried to the output
  // ---------------------------------------------------------------------------------------
  logic        cmp_pred;
  logic [31:0] min_res, max_res, f2i_res;

  simt_fpu_cmp u_cmp (
    .a_i    (a_i),
    .b_i    (b_i),
    .cmp_i  (cmp_i),
    .pred_o (cmp_pred),
    .min_o  (min_res),
    .max_o  (max_res)
  );

  simt_fpu_f2i u_f2i (
    .a_i        (a_i),
    .rm_i       (rm_i),
    .unsigned_i (op_i == simt_fpu_pkg::FF2U),
    .result_o   (f2i_res)
  );

  logic [31:0] dir_result;
  logic        dir_pred;

  always_comb begin
    dir_result = '0;
    dir_pred   = 1'b0;
    unique case (op_i)
      simt_fpu_pkg::FMin: dir_result = min_res;
      simt_fpu_pkg::FMax: dir_result = max_res;
      simt_fpu_pkg::FAbs: dir_result = {1'b0, a_i[30:0]};
      simt_fpu_pkg::FNeg: dir_result = {~a_i[31], a_i[30:0]};
      simt_fpu_pkg::FCmp: begin
        dir_pred   = cmp_pred;
        dir_result = {31'b0, cmp_pred};
      end
      simt_fpu_pkg::FF2S, simt_fpu_pkg::FF2U: dir_result = f2i_res;
      default: ;
    endcase
  end

  // Stage registers of the direct results, the first stage in the low bits, the output
  // stage in the high bits (result: 32 bits per stage).
  logic [Stages-1:0]    dir_valid_q, dir_valid_d;
  logic [Stages*32-1:0] dir_result_q, dir_result_d;
  logic [Stages-1:0]    dir_pred_q, dir_pred_d;

  always_comb begin
    dir_valid_d  = {dir_valid_q[Stages-2:0], valid_i && is_direct};
    dir_result_d = {dir_result_q[(Stages-1)*32-1:0], dir_result};
    dir_pred_d   = {dir_pred_q[Stages-2:0], dir_pred};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) dir_valid_q <= '0;
    else         dir_valid_q <= dir_valid_d;
  end

  always_ff @(posedge clk_i) begin
    dir_result_q <= dir_result_d;
    dir_pred_q   <= dir_pred_d;
  end

  assign valid_o  = fma_valid_o || dir_valid_q[Stages-1];
  assign result_o = fma_valid_o ? fma_result : dir_result_q[Stages*32-1 -: 32];
  assign pred_o   = dir_valid_q[Stages-1] && dir_pred_q[Stages-1];

`ifdef VERILATOR
  // Inputs against state: sampled at the clock edge, out of reset.
  always @(posedge clk_i) begin
    if (rst_ni && valid_i) begin
      // Defined operations and compare codes only.
      assert (32'(op_i) < simt_fpu_pkg::NumOps);
      if (op_i == simt_fpu_pkg::FCmp) assert (32'(cmp_i) < simt_fpu_pkg::NumCmps);
      assert (!is_ds);  // the iterative unit's, not the pipeline's
    end
  end
  always @(posedge clk_i) begin
    if (rst_ni) begin
      // The two pipelines never finish in the same cycle; results are never unknown.
      assert (!(fma_valid_o && dir_valid_q[Stages-1]));
      if (valid_o) assert (!$isunknown(result_o) && !$isunknown(pred_o));
    end
  end
`endif

endmodule
