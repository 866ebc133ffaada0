// The load/store unit's controller: the sequencing of an instruction through the unit's
// parts (docs/blocks/sm.md, "The load/store unit"), from the parts' registered answers to
// their commands. IDLE takes start_i; CHECK waits for every group's addresses to pass
// (simt_sm_lsu_addr), then starts the shared-memory unit (SHARED), takes an in-flight slot
// and sends the first request, joins the sender's queue (done, Detach), or gathers a v4
// store's elements (GATHER); GLOBAL sends an attached instruction's further requests. The
// controller names the requests (the lanes still to request, the next id), the register-file
// reads of the next cycle, and why an instruction waits. The data it moves (addresses, store
// data, gathered elements) stays in simt_sm_lsu and its parts.
//
// A global instruction is done once its requests are sent, or (Detach) once its addresses
// passed the check and it holds a slot: a global access whose threads are one group (every
// instruction at 32 lanes) hands its addresses and operands to the sender in CHECK and is
// done there (a v4 store once its elements are gathered: GATHER reads its four element
// registers on port b, one a cycle); the sender is a queue of SendDepth such instructions,
// which the next ones join while it works (a v4 store gathers meanwhile), and an instruction
// that cannot join waits in CHECK. Its responses come back while the core goes on. A response
// with an error is a fault reported once nothing is in flight (fault_o while idle, with the
// instruction's warp and PC).
module simt_sm_lsu_ctrl #(
  parameter int  NumLanes  = 32,
  parameter int  IdW       = 4,
  parameter bit  Detach    = 1'b1,
  localparam int NumPasses = 32 / NumLanes,
  localparam int PassW     = (NumPasses > 1) ? $clog2(NumPasses) : 1,
  localparam int NumIds    = 1 << IdW
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,

  // The instruction (EXEC: start_i; its fields until done).
  input  logic                    start_i,
  input  logic [31:0]             exec_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  simt_sm_pkg::cls_t       cls_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic                    reads_b_i,   // the instruction reads rb (store data, operand)
  input  logic [4:0]              rb_i,
  output simt_sm_pkg::lsu_state_e state_o,
  output logic [1:0]              elem_o,      // a v4 store's element on port b (GATHER)
  output logic                    early_o,     // ... gathered beside the sender, no slot yet
  output logic                    done_o,
  output logic                    done_fast_o, // done_o in CHECK or GATHER, registered state alone
  output simt_sm_pkg::fault_t     fault_o,

  // The address check (simt_sm_lsu_addr).
  input  logic [31:0]             chk_left_i,       // threads whose groups are still to check
  input  logic [31:0]             chk_left_next_i,
  input  simt_sm_pkg::fault_t     chk_fault_i,

  // The shared-memory unit.
  output logic                    sh_start_o,
  input  logic                    sh_done_i,
  input  logic [4:0]              sh_first_next_i,
  input  logic                    sh_pend_next_i,

  // The sender's queue (simt_sm_lsu_sender).
  output logic                    snd_take_o,   // the instruction joins it
  output logic                    snd_last_o,   // the oldest's last request is sent
  input  logic                    snd_busy_i,
  input  logic                    snd_busy_next_i,
  input  logic                    snd_room_i,
  input  logic                    snd_more_i,
  input  logic [31:0]             snd_more_exec_i,

  // The in-flight table, the ids, the first error response.
  input  logic                    slot_free_i,
  output logic                    alloc_o,
  output logic                    sent_o,       // the instruction's last request is sent
  input  logic [NumIds-1:0]       out_i,        // ids outstanding
  input  logic                    quiet_i,      // nothing in flight
  input  logic                    err_i,
  input  simt_sm_pkg::fault_t     err_fault_i,

  // The requests: the lanes still to request, the next id; the coalescer's group.
  output logic [31:0]             pend_o,
  output logic [4:0]              pend_first_o,  // ... the first thread of their group
  output logic [IdW-1:0]          next_id_o,
  input  logic [31:0]             group_i,
  input  logic                    rest_i,       // ... leaves lanes of its group to request
  output logic                    req_valid_o,
  input  logic                    req_ready_i,
  output logic                    req_fire_o,
  input  logic                    rsp_fire_i,

  // The register-file reads of the next cycle (ports a, b, c; the group the ports hold).
  output logic                    rf_re_o,
  output logic                    rf_re_b_o,
  output logic                    rf_re_c_o,
  output logic [4:0]              rf_rb_o,
  output logic [1:0]              rf_elem_o,       // ... rb_i + this (a v4 store's element)
  output logic [PassW-1:0]        rf_grp_o,
  input  logic [PassW-1:0]        rd_grp_i,

  // Why an instruction waits.
  output logic                    evt_stall_o,
  output logic                    evt_id_wait_o,
  output logic                    evt_slot_wait_o,
  output logic                    evt_sender_wait_o
);

  simt_sm_pkg::lsu_state_e state_d, state_q;
  simt_sm_pkg::lsu_state_e state_c;   // state_d before the sending's end (below)
  logic [31:0]             pend_d, pend_q;     // lanes still to request in this pass
  logic [1:0]              elem_d, elem_q;
  logic                    early_d, early_q;
  logic [IdW-1:0]          next_id_d, next_id_q;
  logic                    snd_q;
  assign snd_q = snd_busy_i;

  logic v4_store;
  assign v4_store = cls_i.v4 && cls_i.store;

  // CHECK of a global access whose addresses passed (chk_ready). With the sender empty
  // (chk_global) it takes a slot (else waits for one) and all but a v4 store send their first
  // request in the same cycle (go_now): the check's answer and the free slot are registered,
  // so that request waits for nothing the start cycle computes. Requests go out in GLOBAL
  // after that, or from the sender when the instruction detaches: an access of one group
  // (Detach), done in CHECK whatever the memory answers (done_fast_o). With the sender
  // busy, a detaching access joins its queue when there is room and a slot (enq_go: done in
  // CHECK, nothing sent yet); any other waits until the sender is empty (requests go out in
  // instruction order; a fault is reported only then).
  logic chk_passed, chk_ready, chk_global, go_now, sending, detach, enq_ok, enq_go;
  assign chk_passed = state_q == simt_sm_pkg::LsCheck && chk_left_i == '0 &&
                      chk_fault_i.cause == simt_pkg::FltNone;
  assign chk_ready  = chk_passed && !cls_i.shared;
  assign chk_global = chk_ready && !snd_q;
  // A global access detaches in CHECK (a v4 store once gathered) when its threads are one
  // group (the sender holds one group's addresses).
  logic one_group;
  assign one_group  = Detach && simt_sm_pkg::later_groups(exec_i, NumLanes) == '0;
  assign detach     = one_group && !v4_store;
  assign go_now     = chk_global && slot_free_i && !v4_store;
  assign enq_ok     = chk_ready && snd_q && snd_room_i && detach;
  assign enq_go     = enq_ok && slot_free_i;
  // A v4 store whose addresses passed gathers its elements while the sender still puts out
  // the instructions before's requests (early): with element 3 on port b it then joins the
  // sender's queue when there is room and a slot (gather_enq; a store of more than one group
  // never does), or once the sender is done takes its slot and sends its first request in
  // one cycle (gather_go).
  logic early_go, early_wait, gather_go, gather_enq_ok, gather_enq;
  assign early_go   = chk_passed && snd_q && v4_store;
  assign early_wait = state_q == simt_sm_pkg::LsGather && elem_q == 2'd3 && early_q;
  assign gather_go  = state_q == simt_sm_pkg::LsGather && elem_q == 2'd3 &&
                      (!early_q || (!snd_q && slot_free_i));
  assign gather_enq_ok = early_wait && snd_q && snd_room_i && one_group;
  assign gather_enq = gather_enq_ok && slot_free_i;
  // A v4 store of one group is done in GATHER once its elements are gathered and it sends or
  // joins the queue: from registered state too, so it retires there as well.
  logic gather_done;
  assign gather_done = state_q == simt_sm_pkg::LsGather && elem_q == 2'd3 && one_group &&
                       (!early_q || gather_go || gather_enq);
  assign done_fast_o = (go_now && detach) || enq_go || gather_done;
  // (A v4 store sends from GATHER's last cycle on: element 3 is on port b then.)
  assign sending    = state_q == simt_sm_pkg::LsGlobal || go_now || snd_q || gather_go;
  assign req_valid_o = sending && pend_q != '0 && !out_i[next_id_q];
  assign req_fire_o  = req_valid_o && req_ready_i;
  // Why a global instruction waits, besides the memory's back-pressure: every id in use (the
  // next one still outstanding), or every slot of the in-flight table busy.
  assign evt_id_wait_o   = sending && pend_q != '0 && out_i[next_id_q];
  assign evt_slot_wait_o = (chk_global || enq_ok || (early_wait && (!snd_q || gather_enq_ok))) &&
                           !slot_free_i;
  assign evt_sender_wait_o = (state_q == simt_sm_pkg::LsCheck && chk_left_i == '0 && snd_q &&
                              !early_go && !enq_ok) || (early_wait && snd_q && !gather_enq_ok);

  // The group of pend_d's lowest thread (pend_first_d), set beside pend_d in each branch:
  // after a request it is the same group while the coalescer leaves lanes of it (rest_i),
  // else the next group of pend_q, both known before the request's lanes, so the register
  // file's next group does not wait for them (the board core's longest chain, 2026-12-06).
  // Likewise whether lanes are left to request after this cycle's request, if any (sent_left;
  // pend_d != 0 where the sending below looks at it).
  logic [4:0]  pend_first_d, first_now, first_after, exec_first;
  logic [31:0] pend_later;  // pend_q's lanes in groups after its first
  logic        sent_left;
  assign pend_later  = simt_sm_pkg::later_groups(pend_q, NumLanes);
  assign exec_first  = simt_sm_pkg::group_first(exec_i, NumLanes);
  assign first_now   = simt_sm_pkg::group_first(pend_q, NumLanes);

  // Whether the coalescer leaves lanes of its group (rest_i) comes late, after its line
  // compares: the next state, the commands and the register-file reads of the next cycle are
  // computed for both of its values (g_rest[r], rest = r) and rest_i selects at the end, one
  // level before the banks' read enables rather than the controller's depth (issue #26: the
  // board core's longest routed path in all three seeds at 3047c94).
  localparam int StW = $bits(state_q);
  localparam int FltW = $bits(fault_o);
  // (Two bundles: the reads depend on the shared-memory unit's answer to this cycle's
  // commands; one bundle of both would be a loop to the simulator.)
  localparam int CmdW = 2 * StW + 32 + 5 + 2 + IdW + 8 + FltW + 5 + 1;
  localparam int RdW  = 3 + 2 + 5 + PassW;
  logic [2*CmdW-1:0] cmd;  // g_rest[r]'s at [r*CmdW +: CmdW] (Yosys 0.23: one packed dimension)
  logic [2*RdW-1:0]  rd;
  for (genvar r = 0; r < 2; r++) begin : g_rest
    localparam bit Rest = r != 0;
    logic [StW-1:0]      state_d_r, state_c_r;
    logic [31:0]         pend_d_r;
    logic [4:0]          pend_first_d_r, first_after_r, first_next_r;
    logic [1:0]          elem_d_r, rf_elem_r;
    logic [IdW-1:0]      next_id_d_r;
    logic                early_d_r, snd_take_r, snd_last_r, sh_start_r, alloc_r, sent_r;
    logic                done_r, evt_stall_r, sent_left_r;
    logic                reads_r, regroup_r, rf_re_r, rf_re_b_r, rf_re_c_r;
    logic [4:0]          rf_rb_r;
    logic [PassW-1:0]    rf_grp_r;
    simt_sm_pkg::fault_t fault_r;
    assign first_after_r = Rest ? first_now : simt_sm_pkg::group_first(pend_later, NumLanes);
    assign sent_left_r = req_fire_o ? (Rest || pend_later != '0) : (pend_q != '0);

    always_comb begin
      state_d_r      = state_q;
      pend_d_r       = pend_q;
      pend_first_d_r = first_now;
      elem_d_r       = elem_q;
      next_id_d_r    = next_id_q;
      early_d_r      = early_q;
      snd_take_r     = 1'b0;
      snd_last_r     = 1'b0;
      sh_start_r     = 1'b0;
      alloc_r        = 1'b0;
      sent_r         = 1'b0;
      done_r         = 1'b0;
      fault_r        = '0;
      evt_stall_r    = 1'b0;

      if (req_fire_o) begin
        pend_d_r = pend_q & ~group_i;
        pend_first_d_r = first_after_r;
        next_id_d_r = next_id_q + 1'b1;
      end

      unique case (state_q)
        simt_sm_pkg::LsIdle: begin
          // The first error response, once nothing is in flight.
          if (err_i && quiet_i) fault_r = err_fault_i;
          if (start_i) begin
            if (!snd_q) begin  // (else the sender's until it is done: below)
              pend_d_r = exec_i;
              pend_first_d_r = exec_first;
              elem_d_r = '0;
            end
            state_d_r = simt_sm_pkg::LsCheck;
          end
        end
        simt_sm_pkg::LsCheck: begin
          if (early_go) begin
            // A v4 store gathers meanwhile (above), from element 0.
            elem_d_r = '0;
            early_d_r = 1'b1;
            state_d_r = simt_sm_pkg::LsGather;
          end else if (enq_go) begin
            // Done: it joins the sender's queue (above).
            alloc_r = 1'b1;
            done_r = 1'b1;
            snd_take_r = 1'b1;
            state_d_r = simt_sm_pkg::LsIdle;
          end else if (snd_q) begin
            // The sender puts out the requests of the instructions before: CHECK acts (and a
            // fault is reported) once it is done, so requests go out in instruction order.
          end else if (chk_fault_i.cause != simt_pkg::FltNone) begin
            fault_r = chk_fault_i;
            state_d_r = simt_sm_pkg::LsIdle;
          end else if (chk_left_i != '0) begin
            // Another group's addresses are on the lanes' checks (checking): CHECK again.
          end else if (cls_i.shared) begin
            sh_start_r = 1'b1;
            state_d_r = simt_sm_pkg::LsShared;
          end else if (slot_free_i) begin
            // chk_global: the slot now, and the first request unless a v4 store gathers first.
            alloc_r = 1'b1;
            if (v4_store) begin
              state_d_r = simt_sm_pkg::LsGather;
            end else if (detach) begin
              // Done: the sender takes the group's addresses and store data off the ports
              // (which DE may read from the next cycle) and puts out what the first request
              // below leaves.
              done_r = 1'b1;
              snd_take_r = 1'b1;
              state_d_r = simt_sm_pkg::LsIdle;
            end else begin
              state_d_r = simt_sm_pkg::LsGlobal;
            end
          end
        end
        simt_sm_pkg::LsGather: begin
          // Element elem_q of the group is on port b (the sender's gather register keeps
          // elements 0-2), the next element's register is read meanwhile; with element 3 on the
          // port the group's lines go out, one request a cycle (port b reads element 3 again
          // while they do).
          if (early_wait) begin
            // Gathered early: the slot when it joins the sender's queue, or once the sender is
            // done (and one is free) with the first request, then on as gathered after CHECK.
            // Until then element 3 stays on port b.
            alloc_r = gather_go || gather_enq;
            early_d_r = !(gather_go || gather_enq);
          end
          if (early_wait && !gather_go && !gather_enq) begin
            // (waiting)
          end else if (elem_q == 2'd3 && one_group) begin
            // Done (Detach): it joins the sender's queue with its elements (0-2 from the gather
            // register, 3 from port b), and the sender puts out what the first request leaves.
            done_r = 1'b1;
            snd_take_r = 1'b1;
            state_d_r = simt_sm_pkg::LsIdle;
          end else if (elem_q == 2'd3) begin
            state_d_r = simt_sm_pkg::LsGlobal;
          end else begin
            elem_d_r = elem_q + 2'd1;
          end
        end
        simt_sm_pkg::LsGlobal: ;
        simt_sm_pkg::LsShared: begin
          if (sh_done_i) begin
            done_r = 1'b1;
            state_d_r = simt_sm_pkg::LsIdle;
          end
        end
        default: state_d_r = simt_sm_pkg::LsIdle;
      endcase

      // Sending requests (GLOBAL, or CHECK's first request): the next group, element or the
      // end. The first request of an instruction may go in CHECK, so the instruction may be
      // done there (one line: one request). (It makes no CHECK or SHARED and leaves none: the
      // next group's choice below looks at state_c, without the request's end.)
      state_c_r = state_d_r;
      if (sending) begin
        evt_stall_r = !req_fire_o && !rsp_fire_i;
        if (!snd_q && v4_store && req_fire_o && sent_left_r && !Rest) begin
          // The next group of a v4 store (fewer lanes than threads): gather its elements.
          elem_d_r = '0;
          state_d_r = simt_sm_pkg::LsGather;
        end else if (!sent_left_r) begin
          // Every request sent: the core goes on while the responses come. The sender's last:
          // the instruction in the unit (checking, or starting now) has the coalescer next.
          sent_r = 1'b1;
          snd_last_r = 1'b1;
          if (snd_q) begin
            // The next in the sender's queue, else the instruction in the unit.
            pend_d_r = snd_more_i ? snd_more_exec_i :
                     (state_q != simt_sm_pkg::LsIdle || start_i) ? exec_i : '0;
            pend_first_d_r = simt_sm_pkg::group_first(pend_d_r, NumLanes);  // (not the request's)
            if (!early_q) elem_d_r = '0;  // (an early gather goes on)
          end else begin
            done_r = 1'b1;
            state_d_r = simt_sm_pkg::LsIdle;
          end
        end
      end
    end

    // The register-file reads: while the unit works next cycle, the group its lanes need then
    // (the check's next group, else the shared-memory unit's or the coalescer's) when it is
    // not the group the ports hold, on port a the addresses, on port b the data, on port c
    // cas's swap value; and a v4 store's element registers on port b (GATHER's next, or
    // element 0 of the next group). Groups are read once after the check, in ascending order,
    // so a group is never read again once its requests went out: the instruction's responses
    // may write its own operands (ld r5, [r5]). In the cycle the unit is done it reads
    // nothing (DE may read then: decode gives DE precedence, simt_sm asserts it), nor while a
    // shared load's last words wait to be written (no group is left to read: a read of group 0
    // then met the write of its last threads' results in one bank entry).
    // The check's next group is read whatever this cycle's group answers: a fault ends the
    // instruction the cycle after it is found and that read goes unused, while waiting for the
    // lanes' compares put them on the path to the banks' read enables (2026-12-07).
    always_comb begin
      if (state_c_r == simt_sm_pkg::LsCheck && chk_left_next_i != '0) begin
        first_next_r = simt_sm_pkg::group_first(chk_left_next_i, NumLanes);
      end else if (state_c_r == simt_sm_pkg::LsShared) begin
        first_next_r = sh_first_next_i;
      end else begin
        // (While the sender works on, the unit's instruction has sent nothing yet.)
        first_next_r = snd_busy_next_i ? exec_first : pend_first_d_r;
      end
    end
    assign reads_r   = (start_i || state_q != simt_sm_pkg::LsIdle) &&
                     state_d_r != simt_sm_pkg::LsIdle &&
                     !(state_c_r == simt_sm_pkg::LsShared && !sh_pend_next_i);
    assign rf_grp_r  = PassW'(32'(first_next_r) >> $clog2(NumLanes));
    assign regroup_r = rf_grp_r != rd_grp_i;
    assign rf_re_r   = reads_r && regroup_r;
    assign rf_re_b_r = reads_r && ((reads_b_i && regroup_r) || v4_store);
    assign rf_re_c_r = reads_r && cls_i.cas && regroup_r;
    assign rf_elem_r = v4_store ? elem_d_r : 2'd0;
    assign rf_rb_r   = rb_i + {3'd0, rf_elem_r};
    assign cmd[r*CmdW +: CmdW] = {state_d_r, state_c_r, pend_d_r, pend_first_d_r, elem_d_r,
                                  next_id_d_r, early_d_r, snd_take_r, snd_last_r, sh_start_r,
                                  alloc_r, sent_r, done_r, evt_stall_r, fault_r, first_after_r,
                                  sent_left_r};
    assign rd[r*RdW +: RdW] = {rf_re_r, rf_re_b_r, rf_re_c_r, rf_elem_r, rf_rb_r, rf_grp_r};
  end

  simt_sm_pkg::lsu_state_e st_d_sel, st_c_sel;
  assign {st_d_sel, st_c_sel, pend_d, pend_first_d, elem_d, next_id_d, early_d, snd_take_o,
          snd_last_o, sh_start_o, alloc_o, sent_o, done_o, evt_stall_o, fault_o, first_after,
          sent_left} = rest_i ? cmd[CmdW +: CmdW] : cmd[0 +: CmdW];
  assign {rf_re_o, rf_re_b_o, rf_re_c_o, rf_elem_o, rf_rb_o, rf_grp_o} =
         rest_i ? rd[RdW +: RdW] : rd[0 +: RdW];
  assign state_d = st_d_sel;
  assign state_c = st_c_sel;

  assign state_o   = state_q;
  assign elem_o    = elem_q;
  assign early_o   = early_q;
  assign pend_o    = pend_q;
  assign pend_first_o = first_now;
  assign next_id_o = next_id_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= simt_sm_pkg::LsIdle;
      pend_q    <= '0;
      elem_q    <= '0;
      early_q   <= 1'b0;
      next_id_q <= '0;
    end else begin
      state_q   <= state_d;
      pend_q    <= pend_d;
      elem_q    <= elem_d;
      early_q   <= early_d;
      next_id_q <= next_id_d;
    end
  end

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(start_i && (state_q != simt_sm_pkg::LsIdle || exec_i == '0)))
        else $error("sm lsu: start while busy or without executing lanes");
      // Early: a v4 store gathering beside the sender, before its slot.
      assert (!early_q || (state_q == simt_sm_pkg::LsGather && v4_store))
        else $error("sm lsu: an early gather outside GATHER");
      assert (!(req_valid_o && v4_store && !snd_q &&
                !(state_q == simt_sm_pkg::LsGlobal ||
                  (state_q == simt_sm_pkg::LsGather && elem_q == 2'd3))))
        else $error("sm lsu: a v4 store's request before its group's elements are gathered");
      // The sender: only with Detach, one instruction at a time (the next takes its slot after
      // it), on a plain access of one group; done_fast_o is a done of CHECK.
      assert (!(snd_q && !Detach))
        else $error("sm lsu: the sender works without Detach");
      assert (!(snd_q && (state_q == simt_sm_pkg::LsGlobal ||
                          (state_q == simt_sm_pkg::LsGather && !early_q) ||
                          state_q == simt_sm_pkg::LsShared)))
        else $error("sm lsu: the sender works beside an attached access");
      assert (!(alloc_o && snd_q && !snd_take_o))
        else $error("sm lsu: a slot taken while the sender works on, not to join its queue");
      assert (!(snd_q && simt_sm_pkg::later_groups(pend_q, NumLanes) != '0))
        else $error("sm lsu: the sender holds threads of two groups");
      assert ((state_c == simt_sm_pkg::LsCheck) == (state_d == simt_sm_pkg::LsCheck) &&
              (state_c == simt_sm_pkg::LsShared) == (state_d == simt_sm_pkg::LsShared))
        else $error("sm lsu: the sending's end makes or leaves CHECK or SHARED");
      // The next group and what is left, known before the request's lanes, are theirs.
      assert (!sending || sent_left == ((req_fire_o ? pend_q & ~group_i : pend_q) != '0))
        else $error("sm lsu: lanes left after the request: %b", sent_left);
      assert (!req_fire_o || first_after ==
              simt_sm_pkg::group_first(pend_q & ~group_i, NumLanes))
        else $error("sm lsu: the group after the request: %0d", first_after);
      assert (pend_first_d == simt_sm_pkg::group_first(pend_d, NumLanes))
        else $error("sm lsu: the next lanes' group %0d, not pend_d's", pend_first_d);
      assert (!(done_fast_o && !(done_o && (state_q == simt_sm_pkg::LsCheck ||
                                            state_q == simt_sm_pkg::LsGather))))
        else $error("sm lsu: a fast done outside CHECK's or GATHER's done");
    end
  end
`endif

endmodule
