// Execute: the 32 ALU lanes of the instruction in EXEC. ALU-class instructions give every
// executing lane's register result (rf_*_o, written at the end of EXEC), predicate
// instructions the warp's new predicates (pred_*_o); special registers come from the warp's
// place in its CTA and the launch. Combinational: EXEC is one cycle for these, whatever the
// instruction; the sequencer sends memory, control and barrier instructions on to their
// units. A param read outside the params, or a trap, is a fault (fault_o).
module simt_sm_execute #(
  parameter int NumWarps   = 8,
  parameter int ParamWords = 64,
  localparam int WarpW     = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int ParamAW   = $clog2(ParamWords)
) (
  input  logic                       valid_i,       // the instruction is in EXEC
  /* verilator lint_off UNUSEDSIGNAL */
  input  simt_sm_pkg::inst_t         inst_i,  // the guard was applied in DE
  /* verilator lint_on UNUSEDSIGNAL */
  /* verilator lint_off UNUSEDSIGNAL */
  input  simt_sm_pkg::cls_t          cls_i,         // its classes (alu, pred used here)
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [31:0]                exec_i,        // executing lanes
  input  logic [32*32-1:0]           opa_i,
  input  logic [32*32-1:0]           opb_i,
  input  logic [32*7-1:0]            pred_i,        // the warp's predicates
  input  logic [31:0]                param_rdata_i,
  input  logic [ParamAW:0]           cfg_param_words_i,

  // Special registers.
  input  logic [WarpW-1:0]           warp_in_cta_i,
  input  logic [15:0]                ctaid_i,
  input  logic [15:0]                cfg_ntid_i,
  input  logic [15:0]                cfg_nctaid_i,
  input  logic [31:0]                cycle_i,

  output logic [31:0]                rf_we_o,
  output logic [32*32-1:0]           rf_wdata_o,
  output logic                       pred_we_o,
  output logic [32*7-1:0]            pred_wdata_o,
  output simt_sm_pkg::fault_t        fault_o
);

  logic [32*32-1:0] alu_res;
  logic [31:0]      alu_cmp;
  for (genvar l = 0; l < 32; l++) begin : g_lane
    logic [31:0] b;
    assign b = inst_i.imm_b ? inst_i.imm : opb_i[l*32 +: 32];
    simt_sm_lane_alu u_alu (
      .op_i     (inst_i.op),
      .sub_i    (inst_i.sub),
      .a_i      (opa_i[l*32 +: 32]),
      .b_i      (b),
      .result_o (alu_res[l*32 +: 32]),
      .cmp_o    (alu_cmp[l])
    );
  end

  // %gtid of lane 0: ctaid * ntid + warp * 32 (one multiplier, not one per lane).
  logic [31:0] gtid_base;
  assign gtid_base = {16'd0, ctaid_i} * {16'd0, cfg_ntid_i} +
                     {{(27 - WarpW){1'b0}}, warp_in_cta_i, 5'd0};

  always_comb begin
    for (int l = 0; l < 32; l++) begin
      unique case (inst_i.op)
        simt_pkg::OpMov:     rf_wdata_o[l*32 +: 32] = inst_i.imm_b ? inst_i.imm : opa_i[l*32 +: 32];
        simt_pkg::OpLdParam: rf_wdata_o[l*32 +: 32] = param_rdata_i;
        simt_pkg::OpSelp:    rf_wdata_o[l*32 +: 32] =
                               simt_sm_pkg::pick(pred_i[l*7 +: 7], inst_i.sub[2:0]) ?
                               opa_i[l*32 +: 32] : opb_i[l*32 +: 32];
        simt_pkg::OpMovSreg: begin
          unique case (inst_i.sub)
            simt_pkg::SregTid:    rf_wdata_o[l*32 +: 32] = {{(27 - WarpW){1'b0}}, warp_in_cta_i,
                                                            5'(l)};
            simt_pkg::SregNtid:   rf_wdata_o[l*32 +: 32] = {16'd0, cfg_ntid_i};
            simt_pkg::SregCtaid:  rf_wdata_o[l*32 +: 32] = {16'd0, ctaid_i};
            simt_pkg::SregNctaid: rf_wdata_o[l*32 +: 32] = {16'd0, cfg_nctaid_i};
            simt_pkg::SregLaneid: rf_wdata_o[l*32 +: 32] = 32'(l);
            simt_pkg::SregWarpid: rf_wdata_o[l*32 +: 32] = 32'(warp_in_cta_i);
            simt_pkg::SregGtid:   rf_wdata_o[l*32 +: 32] = gtid_base + 32'(l);
            simt_pkg::SregClock:  rf_wdata_o[l*32 +: 32] = cycle_i;
            default:              rf_wdata_o[l*32 +: 32] = '0;
          endcase
        end
        default: rf_wdata_o[l*32 +: 32] = alu_res[l*32 +: 32];
      endcase
    end
  end

  // The warp's predicates after setp/pand/por/pxor/pnot on its executing lanes.
  logic [31:0] pa, pb, pr;  // per lane: predicate operands and result
  always_comb begin
    for (int l = 0; l < 32; l++) begin
      pa[l] = simt_sm_pkg::pick(pred_i[l*7 +: 7], inst_i.ra[2:0]);
      pb[l] = simt_sm_pkg::pick(pred_i[l*7 +: 7], inst_i.rb[2:0]);
      unique case (inst_i.op)
        simt_pkg::OpSetp: pr[l] = alu_cmp[l];
        simt_pkg::OpPand: pr[l] = pa[l] & pb[l];
        simt_pkg::OpPor:  pr[l] = pa[l] | pb[l];
        simt_pkg::OpPxor: pr[l] = pa[l] ^ pb[l];
        default:          pr[l] = !pa[l];
      endcase
    end
    pred_wdata_o = simt_sm_pkg::pred_write(pred_i, exec_i, inst_i.rd[2:0], pr);
  end

  // ld.param outside the params (or misaligned) faults at the lowest executing lane.
  logic param_fault;
  assign param_fault = inst_i.op == simt_pkg::OpLdParam && exec_i != '0 &&
                       (inst_i.imm[1:0] != 2'b00 ||
                        inst_i.imm[31:2] >= {{(30 - ParamAW - 1){1'b0}}, cfg_param_words_i});

  always_comb begin
    fault_o = '0;
    if (valid_i && param_fault) begin
      fault_o.cause  = (inst_i.imm[1:0] != 2'b00) ? simt_pkg::FltParamAlign
                                                  : simt_pkg::FltParamRange;
      fault_o.lane_v = 1'b1;
      fault_o.lane   = simt_sm_pkg::lowest(exec_i);
      fault_o.addr   = inst_i.imm;
    end else if (valid_i && inst_i.op == simt_pkg::OpTrap) begin
      fault_o.cause  = simt_pkg::FltTrap;
    end
  end

  assign rf_we_o   = (valid_i && cls_i.alu && !param_fault) ? exec_i : '0;
  assign pred_we_o = valid_i && cls_i.pred;

endmodule
