// Execute: the NumLanes ALU lanes of the instruction in EXEC. A warp's 32 threads go
// through the lanes in passes of NumLanes threads (simt_sm_pass says which threads are on
// the lanes: threads_i, group pass_i); each pass takes its group's operands from the
// register file's read ports (read the cycle before: decode reads the next pass's group
// while this one executes) and writes its threads' register results (rf_*_o, written at
// the end of the cycle, on the lanes) or predicates (pred_*_o), so EXEC lasts one cycle per
// group with work, one cycle at NumLanes = 32. Special registers come from the
// warp's place in its CTA and the launch. The sequencer sends memory, control and barrier
// instructions on to their units after one cycle. A param read outside the params, or a
// trap, is a fault (fault_o).
//
// cal writes its link register here too (the return address in r31 of its executing
// threads, rf_link_o), from the instruction alone: the divergence unit computes the same mask
// and address (simt_sm_control asserts it), but waiting for its answer would chain its whole
// step into the register file's write port, and from there into the load/store and FP units'
// write-backs. (cal does not fault in EXEC; nothing reads r31 of the warp before it issues
// again.)
module simt_sm_execute #(
  parameter int NumWarps   = 8,
  parameter int NumLanes   = 32,
  localparam int NumPasses = 32 / NumLanes,
  localparam int PassW     = (NumPasses > 1) ? $clog2(NumPasses) : 1,
  localparam int WarpW     = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int AddrW     = 22
) (
  input  logic                       valid_i,       // the instruction is in EXEC
  /* verilator lint_off UNUSEDSIGNAL */
  input  simt_sm_pkg::inst_t         inst_i,  // the guard was applied in DE
  /* verilator lint_on UNUSEDSIGNAL */
  /* verilator lint_off UNUSEDSIGNAL */
  input  simt_sm_pkg::cls_t          cls_i,         // its classes (alu, pred used here)
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [31:0]                exec_i,        // executing threads
  input  logic [NumLanes*PassW-1:0]  pass_i,        // the group of threads on the lanes,
                                                    // a copy per lane (simt_sm_pass)
  input  logic [31:0]                threads_i,     // ... its threads
  input  logic [NumLanes-1:0]        imm_b_i,       // inst_i.imm_b, a copy per lane
  input  logic [NumLanes*32-1:0]     opa_i,         // the pass's group (lane l: its thread l)
  input  logic [NumLanes*32-1:0]     opb_i,
  input  logic [32*7-1:0]            pred_i,        // the warp's predicates
  input  logic [31:0]                param_rdata_i,
  input  logic                       exec_any_i,    // exec_i has a thread (from DE)
  input  logic                       param_bad_i,   // ld.param outside the params (from DE)

  // Special registers.
  input  logic [WarpW-1:0]           warp_in_cta_i,
  input  logic [15:0]                ctaid_i,
  input  logic [15:0]                cfg_ntid_i,
  input  logic [15:0]                cfg_nctaid_i,
  input  logic [31:0]                cycle_i,
  input  logic [AddrW-1:0]           pc_i,          // cal's link: pc_i + 1

  output logic [31:0]                rf_we_o,
  output logic [NumLanes*32-1:0]     rf_wdata_o,    // on the lanes (rf_we_o: the pass's threads)
  output logic                       rf_link_o,     // the write is cal's link (r31, not rd)
  output logic                       pred_we_o,
  output logic [32*7-1:0]            pred_wdata_o,
  output simt_sm_pkg::fault_t        fault_o
);

  // Per lane: the thread it computes for in this pass (its copy of the pass index), its
  // operands (the read ports' lane) and its predicates (one NumPasses:1 choice among the
  // groups' slices of the warp's predicate registers).
  logic [4:0]             tid  [NumLanes];
  logic [31:0]            opa  [NumLanes];
  logic [31:0]            opb  [NumLanes];
  logic [6:0]             pr_l [NumLanes];
  logic [NumLanes-1:0]    imm_b;
  for (genvar l = 0; l < NumLanes; l++) begin : g_sel
    logic [PassW-1:0] pass;
    logic [6:0]       p_grp [NumPasses];
    for (genvar p = 0; p < NumPasses; p++) begin : g_grp
      assign p_grp[p] = pred_i[(p*NumLanes + l)*7 +: 7];
    end
    assign pass     = pass_i[l*PassW +: PassW];
    assign tid[l]   = 5'(32'(pass) * NumLanes + l);
    assign opa[l]   = opa_i[l*32 +: 32];
    assign opb[l]   = opb_i[l*32 +: 32];
    assign pr_l[l]  = p_grp[pass];
    assign imm_b[l] = imm_b_i[l];
  end

  logic [31:0] alu_res [NumLanes];
  logic [NumLanes-1:0] alu_cmp;
  for (genvar l = 0; l < NumLanes; l++) begin : g_lane
    logic [31:0] b;
    assign b = imm_b[l] ? inst_i.imm : opb[l];
    simt_sm_lane_alu u_alu (
      .op_i     (inst_i.op),
      .sub_i    (inst_i.sub),
      .a_i      (opa[l]),
      .b_i      (b),
      .result_o (alu_res[l]),
      .cmp_o    (alu_cmp[l])
    );
  end

  // %gtid of lane 0: ctaid * ntid + warp * 32 (one multiplier, not one per lane).
  logic [31:0] gtid_base;
  assign gtid_base = {16'd0, ctaid_i} * {16'd0, cfg_ntid_i} +
                     {{(27 - WarpW){1'b0}}, warp_in_cta_i, 5'd0};

  logic [31:0] res [NumLanes];  // per lane: the register result
  logic [NumLanes-1:0] pr;      // ... the predicate result
  logic [AddrW-1:0] link_pc;  // cal's return address
  assign link_pc = pc_i + 1'b1;
  always_comb begin
    for (int l = 0; l < NumLanes; l++) begin
      unique case (inst_i.op)
        simt_pkg::OpMov:     res[l] = imm_b[l] ? inst_i.imm : opa[l];
        simt_pkg::OpLdParam: res[l] = param_rdata_i;
        simt_pkg::OpSelp:    res[l] = simt_sm_pkg::pick(pr_l[l], inst_i.sub[2:0]) ? opa[l]
                                                                                   : opb[l];
        simt_pkg::OpMovSreg: begin
          unique case (inst_i.sub)
            simt_pkg::SregTid:    res[l] = {{(27 - WarpW){1'b0}}, warp_in_cta_i, tid[l]};
            simt_pkg::SregNtid:   res[l] = {16'd0, cfg_ntid_i};
            simt_pkg::SregCtaid:  res[l] = {16'd0, ctaid_i};
            simt_pkg::SregNctaid: res[l] = {16'd0, cfg_nctaid_i};
            simt_pkg::SregLaneid: res[l] = 32'(tid[l]);
            simt_pkg::SregWarpid: res[l] = 32'(warp_in_cta_i);
            simt_pkg::SregGtid:   res[l] = gtid_base + 32'(tid[l]);
            simt_pkg::SregClock:  res[l] = cycle_i;
            default:              res[l] = '0;
          endcase
        end
        simt_pkg::OpCal: res[l] = 32'(link_pc);
        default: res[l] = alu_res[l];
      endcase
    end
  end

  // setp/pand/por/pxor/pnot on the lanes: the threads' new predicate.
  logic [NumLanes-1:0] pa, pb;  // per lane: predicate operands
  always_comb begin
    for (int l = 0; l < NumLanes; l++) begin
      pa[l] = simt_sm_pkg::pick(pr_l[l], inst_i.ra[2:0]);
      pb[l] = simt_sm_pkg::pick(pr_l[l], inst_i.rb[2:0]);
      unique case (inst_i.op)
        simt_pkg::OpSetp: pr[l] = alu_cmp[l];
        simt_pkg::OpPand: pr[l] = pa[l] & pb[l];
        simt_pkg::OpPor:  pr[l] = pa[l] | pb[l];
        simt_pkg::OpPxor: pr[l] = pa[l] ^ pb[l];
        default:          pr[l] = !pa[l];
      endcase
    end
  end

  // The register results leave on the lanes; thread t's predicate comes from lane
  // t % NumLanes (wires: only the threads of this pass are written).
  logic [31:0] pr_t;
  always_comb begin
    for (int l = 0; l < NumLanes; l++) rf_wdata_o[l*32 +: 32] = res[l];
    for (int t = 0; t < 32; t++) pr_t[t] = pr[t % NumLanes];
    pred_wdata_o = simt_sm_pkg::pred_write(pred_i, exec_i & threads_i, inst_i.rd[2:0], pr_t);
  end

  // ld.param outside the params (or misaligned) faults at the lowest executing lane.
  logic param_fault;
  assign param_fault = param_bad_i && exec_any_i;

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

  assign rf_link_o = inst_i.op == simt_pkg::OpCal;
  assign rf_we_o   = (valid_i && (cls_i.alu || rf_link_o) && !param_fault) ? exec_i & threads_i
                                                                           : '0;
  assign pred_we_o = valid_i && cls_i.pred;

endmodule
